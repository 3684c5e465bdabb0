import Foundation
import StoreWire
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Idle connections beyond the store's connection limit (issue 25 item 16), through the real binary: the ones idle
/// longest are closed to make room, so a purchase on a new connection is always served, and a request under way
/// is never closed for it. The store runs with the smallest `--max-connections` (16) and an idle deadline of a day,
/// so no slot is ever freed by a deadline, only to make room. Every wait is for an event; the timeouts only stop
/// a hang.
@Suite(.serialized) struct IdleConnectionRoomTests {
    static let limit = 16
    static let purchaseJSON = #"{"productId":"ai.voicedebrief.app.credit.500"}"#

    /// A store that takes at most ``limit`` connections, `extra` arguments after.
    static func start(_ extra: [String] = []) async throws -> EphemeralMockStore {
        try await EphemeralMockStore.inProcess(
            ["--ephemeral", "--max-connections", "\(limit)", "--idle-timeout", "86400"] + extra)
    }

    /// Whether the server closed `socket` (its end of the stream is in), without waiting.
    static func isClosed(_ socket: Int32) -> Bool {
        var byte: UInt8 = 0
        let count = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }

    /// Opens `count` connections that send nothing.
    static func openIdle(_ count: Int, port: UInt16, into sockets: inout [Int32]) throws {
        for _ in 0..<count { sockets.append(try RawHTTP.connect(port: port, timeout: 120)) }
    }

    /// Reads from `socket` until `text` has come (or the server closes, or 120 s pass); what came.
    static func receive(_ socket: Int32, until text: String) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while !String(decoding: received, as: UTF8.self).contains(text) {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }
}

extension IdleConnectionRoomTests {
    @Test func aPurchaseOnANewConnectionIsServedWhileIdleConnectionsOutnumberTheLimit() async throws {
        let store = try await Self.start()
        var idle: [Int32] = []
        defer { idle.forEach { close($0) } }

        for round in 0..<5 {
            // Twice the limit each round, as a test runner's pool leaves them: 160 in all against 16 slots.
            try Self.openIdle(2 * Self.limit, port: store.port, into: &idle)
            let status = try store.purchase(timeout: 120)
            #expect(status == 200, "round \(round): a purchase with \(idle.count) idle connections opened")
            #expect(store.isRunning, "the store died in round \(round)")
        }
        // Every idle connection was taken (the purchases came after them), and all but the slots' worth closed.
        let allButTheSlots = idle.count - Self.limit
        let closedEnough = waitUntil(timeout: 120, pollEvery: 0.05) {
            idle.count(where: Self.isClosed) >= allButTheSlots
        }
        #expect(closedEnough, "\(idle.count(where: Self.isClosed)) of \(idle.count) idle connections closed")
        // Oldest first: the first one opened is closed, the last one is open and served.
        #expect(Self.isClosed(idle[0]))
        let newest = try #require(idle.last)
        #expect(!Self.isClosed(newest))
        RawHTTP.send(newest, RawHTTP.request("GET", DeviceAPI.products.path() + "?ids=ai.voicedebrief.app.credit.500"))
        #expect(RawHTTP.parse(RawHTTP.receiveAll(newest))?.status == 200, "the newest idle connection is served")
        #expect(await store.stop() == 0)
    }

    @Test func aRequestUnderWayIsNotClosedToMakeRoom() async throws {
        let store = try await Self.start(["--request-timeout", "3600"])
        var idle: [Int32] = []
        defer { idle.forEach { close($0) } }

        // The oldest connection of all: its request's headers are in (the store says 100 Continue), its body not.
        let busy = try RawHTTP.connect(port: store.port, timeout: 120)
        defer { close(busy) }
        let body = Array(Self.purchaseJSON.utf8)
        let head =
            "POST \(DeviceAPI.purchase.path()) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\nExpect: 100-continue\r\n\r\n"
        RawHTTP.send(busy, Array(head.utf8))
        let interim = Self.receive(busy, until: "\r\n\r\n")
        try #require(interim.hasPrefix("HTTP/1.1 100"), "no 100 Continue: \(interim.debugDescription)")

        // Three times the limit of idle connections after it, and a purchase on a new one.
        try Self.openIdle(3 * Self.limit, port: store.port, into: &idle)
        #expect(try store.purchase(timeout: 120) == 200)
        #expect(!Self.isClosed(busy), "the request under way lost its connection")

        RawHTTP.send(busy, body)
        let answer = RawHTTP.parse(RawHTTP.receiveAll(busy))
        #expect(answer?.status == 200, "the request under way was not answered: \(answer?.text ?? "nothing")")
        #expect(try store.request("GET", DeviceAPI.unfinished.path(), timeout: 120).status == 200)
        #expect(store.isRunning)
    }
}
