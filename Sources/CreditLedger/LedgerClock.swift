import Clocks
import Foundation

/// Where the ledger gets the time: the one clock protocol of the package. Injected so tests are deterministic.
public typealias LedgerClock = WallClock

extension WallClock {
    /// The current time as the ledger writes it.
    public func now() -> Timestamp { Timestamp(milliseconds: currentMilliseconds()) }
}

/// Where the ledger gets fresh ids for charges and devices. Injected so tests are deterministic.
public protocol IDSource: Sendable {
    func makeID() -> String
}

/// Random UUIDs, lowercased.
public struct RandomIDs: IDSource {
    public init() {}
    public func makeID() -> String { UUID().uuidString.lowercased() }
}

/// A clock that always says the same time (for tests), or steps by `step` milliseconds each call.
public final class FixedClock: LedgerClock, @unchecked Sendable {
    // A lock guards the counter; the clock is shared by value semantics users.
    private let lock = NSLock()
    private var current: Int64
    private let step: Int64

    public init(_ start: Timestamp, step: Int64 = 0) {
        current = start.milliseconds
        self.step = step
    }

    public func currentMilliseconds() -> Int64 {
        lock.lock()
        defer { lock.unlock() }
        let value = current
        current += step
        return value
    }

    /// Moves the clock to `time`.
    public func set(_ time: Timestamp) {
        lock.lock()
        current = time.milliseconds
        lock.unlock()
    }
}

/// Ids `prefix-0001`, `prefix-0002`, ... (for tests).
public final class SequentialIDs: IDSource, @unchecked Sendable {
    // A lock guards the counter.
    private let lock = NSLock()
    private var next = 1
    private let prefix: String

    public init(prefix: String = "id") { self.prefix = prefix }

    public func makeID() -> String {
        lock.lock()
        defer { lock.unlock() }
        let value = next
        next += 1
        let digits = String(value)
        return prefix + "-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
