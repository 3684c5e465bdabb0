import Clocks
import Foundation
import Platform

/// Keeps slow and idle clients from holding the server: every open connection, keyed by its socket, with what it
/// is doing and since when; a thread closes those past their deadline.
///
/// - A connection that has not begun a request (its request line is not in) within ``idleSeconds`` of being
///   opened or answered is closed: an idle one, and one that sends a request line a byte at a time.
/// - A request whose line is in must arrive whole (headers and body) within ``requestSeconds``; it is answered
///   `408 Request Timeout` (``lateAnswer``, written straight to the socket: libmicrohttpd answers only a request
///   whose headers are all in) and then closed.
/// - A request being handled, or its answer being sent, has no deadline here (libmicrohttpd's own idle timeout
///   covers a client that stops reading).
/// - Room: when more than ``openLimit`` connections are open (``ConnectionSlots/kept``, a margin below
///   libmicrohttpd's own limit), the ones idle longest are closed, so libmicrohttpd never reaches its limit, at
///   which it closes every new connection, while idle ones hold the slots: a new connection and its request are
///   always served. Only idle connections (waiting for a request line, never sent a byte, or waiting
///   for the next request) are closed so, never one whose request is in or being answered; one with bytes waiting
///   in its socket (a request just arriving) is passed over. Checked at every opening and by the thread.
///
/// Closing is `shutdown(2)` on the socket, under the lock: libmicrohttpd tells ``closed(_:)`` (which takes the
/// lock) before it closes a socket, so a socket in the table is still the connection's own. libmicrohttpd then
/// sees the end of the stream and frees the connection on its own thread. Its times and its waits are `clock`'s
/// (monotonic real time; a test's clock in tests, so a deadline passes when the test moves it). `@unchecked
/// Sendable`: the table is used under `condition` only.
final class ConnectionDeadlines: @unchecked Sendable {
    enum Phase {
        /// Waiting for a request line since `since` (opened, or the previous answer sent).
        case idle
        /// A request line came in at `since`; the rest must follow.
        case receiving
        /// Whole: with the handler, or its answer on the way.
        case answering
        /// Past its deadline and shut down; libmicrohttpd has yet to notice.
        case cut
    }

    struct Entry {
        var phase: Phase
        var since: Double
    }

    let idleSeconds: Double
    let requestSeconds: Double
    /// The whole answer (status line, headers, body) sent to a request cut for being late; empty over TLS, where
    /// only libmicrohttpd's TLS session may write, so a late request there is closed unanswered.
    let lateAnswer: [UInt8]
    /// Connections kept open at most: beyond, the ones idle longest are closed to make room.
    let openLimit: Int
    /// The slots libmicrohttpd has beyond ``openLimit``, for connections closed but not yet freed.
    let spareSlots: Int
    private let clock: any WallClock
    /// Rung to stop the thread at once.
    private let wake = ClockWake()
    private let condition = NSCondition()
    private var table: [Int32: Entry] = [:]
    private var isStopped = false
    /// The clock's millisecond the thread waits until.
    private var lookingAt = Int64.max
    private var cutCount = 0
    private var roomCount = 0

    init(
        idleSeconds: Double, requestSeconds: Double, lateAnswer: [UInt8] = [], openLimit: Int = .max,
        spareSlots: Int = .max, clock: any WallClock = MonotonicClock()
    ) {
        self.clock = clock
        self.idleSeconds = idleSeconds
        self.requestSeconds = requestSeconds
        self.lateAnswer = lateAnswer
        self.openLimit = max(1, openLimit)
        self.spareSlots = max(0, spareSlots)
    }

    /// Starts the thread that closes late connections: it waits on the clock until the next deadline, and looks at
    /// least a few times per shortest deadline (room may be made for connections busy at the last opening).
    func start() {
        let interval = Int64(1_000 * min(0.25, max(0.02, min(idleSeconds, requestSeconds) / 4)))
        let thread = Thread { [self] in
            while !isStoppedNow {
                _ = clock.wait(until: nextLook(interval: interval), orUntil: wake)
                condition.lock()
                if !isStopped {
                    cutLate(now: now())
                    // Connections busy at the last opening may be idle by now.
                    makeRoom(sparing: -1)
                }
                condition.unlock()
            }
        }
        thread.name = "mockstore-http-deadlines"
        thread.start()
    }

    /// When the thread looks next: the first deadline of an idle or receiving connection (a millisecond past it, as
    /// a connection is late only beyond it), or `interval` from now, whichever is sooner. Recorded, so that a
    /// connection with a sooner deadline (one whose request line just came, with the shorter request deadline)
    /// wakes the thread early.
    private func nextLook(interval: Int64) -> Int64 {
        condition.lock()
        defer { condition.unlock() }
        let now = clock.currentMilliseconds()
        let first = table.values.compactMap(deadline(of:)).min() ?? Int64.max
        lookingAt = min(first, now + interval)
        return lookingAt
    }

    /// Under the lock: the clock's millisecond at which `entry` is late (nil: it has no deadline).
    private func deadline(of entry: Entry) -> Int64? {
        let limit: Double
        switch entry.phase {
        case .idle: limit = idleSeconds
        case .receiving: limit = requestSeconds
        case .answering, .cut: return nil
        }
        return Int64(((entry.since + limit) * 1_000).rounded(.down)) + 1
    }

    /// Stops the thread (the table is left to libmicrohttpd's closing of every connection).
    func stop() {
        condition.lock()
        isStopped = true
        condition.unlock()
        wake.ring()
    }

    private var isStoppedNow: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isStopped
    }

    /// How many connections were closed for being late, since the start.
    var connectionsCut: Int {
        condition.lock()
        defer { condition.unlock() }
        return cutCount
    }

    /// How many open connections are in `phase` now (a test waits for a request line to be in before it moves the
    /// clock past its deadline).
    func count(in phase: Phase) -> Int {
        condition.lock()
        defer { condition.unlock() }
        return table.values.count { $0.phase == phase }
    }

    /// How many idle connections were closed to make room for others, since the start.
    var connectionsClosedForRoom: Int {
        condition.lock()
        defer { condition.unlock() }
        return roomCount
    }

    /// A new connection: idle from now; room is made for it if it is one too many. Called on libmicrohttpd's
    /// accepting thread, which frees closed connections between accepts once their own threads have let go of
    /// them: the more are waiting to be freed, the longer it pauses here (up to 20 ms), so that a burst of new
    /// connections cannot use up the spare slots before they are freed.
    func opened(_ socket: Int32) {
        set(socket, .idle)
        condition.lock()
        makeRoom(sparing: socket)
        let freeing = table.values.count { $0.phase == .cut }
        condition.unlock()
        let pause = min(20, freeing - spareSlots / 2)
        if pause > 0 { usleep(useconds_t(pause * 1_000)) }
    }

    func requestLineArrived(_ socket: Int32) { set(socket, .receiving) }
    func requestArrived(_ socket: Int32) { set(socket, .answering) }
    func answered(_ socket: Int32) { set(socket, .idle) }

    func closed(_ socket: Int32) {
        condition.lock()
        table[socket] = nil
        condition.unlock()
    }

    private func set(_ socket: Int32, _ phase: Phase) {
        guard socket >= 0 else { return }
        let now = now()
        condition.lock()
        var sooner = false
        if table[socket]?.phase != .cut {
            let entry = Entry(phase: phase, since: now)
            table[socket] = entry
            sooner = deadline(of: entry).map { $0 < lookingAt } ?? false
        }
        condition.unlock()
        if sooner { wake.ring() }
    }

    /// Under the lock.
    private func cutLate(now: Double) {
        for (socket, entry) in table {
            let limit: Double
            switch entry.phase {
            case .idle: limit = idleSeconds
            case .receiving: limit = requestSeconds
            case .answering, .cut: continue
            }
            guard now - entry.since > limit else { continue }
            if entry.phase == .receiving { sendLateAnswer(to: socket) }
            shutdown(socket, Int32(SHUT_RDWR))
            table[socket]?.phase = .cut
            cutCount += 1
        }
    }

    /// Under the lock: while more than ``openLimit`` connections are open and not yet cut, closes the one idle
    /// longest (never `newest`, the connection being made room for).
    private func makeRoom(sparing newest: Int32) {
        var excess = table.values.count { $0.phase != .cut } - openLimit
        var passedOver: Set<Int32> = [newest]
        // One at a time, the oldest first: there is seldom more than one too many, and the table is thousands.
        while excess > 0,
            let socket = table.lazy.filter({ $0.value.phase == .idle && !passedOver.contains($0.key) })
                .min(by: { $0.value.since < $1.value.since })?.key
        {
            passedOver.insert(socket)
            guard !Self.hasBytesWaiting(socket) else { continue }
            shutdown(socket, Int32(SHUT_RDWR))
            table[socket]?.phase = .cut
            roomCount += 1
            excess -= 1
        }
    }

    /// Whether bytes the server has not read yet wait in `socket` (a request arriving: not idle after all).
    private static func hasBytesWaiting(_ socket: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
    }

    /// Sends ``lateAnswer`` without waiting (it fits an empty socket buffer; a client that does not read loses it).
    /// `shutdown` then sends it before the end of the stream.
    private func sendLateAnswer(to socket: Int32) {
        guard !lateAnswer.isEmpty else { return }
        lateAnswer.withUnsafeBytes { bytes in
            _ = send(socket, bytes.baseAddress, bytes.count, Platform.sendWithoutSignal | Int32(MSG_DONTWAIT))
        }
    }

    /// Now on the clock, in seconds.
    private func now() -> Double {
        Double(clock.currentMilliseconds()) / 1_000
    }
}
