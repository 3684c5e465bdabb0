import Clocks
import Foundation
import Locking

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
public final class FixedClock: LedgerClock, Sendable {
    private let current: Locked<Int64>
    private let step: Int64

    public init(_ start: Timestamp, step: Int64 = 0) {
        current = Locked(start.milliseconds)
        self.step = step
    }

    public func currentMilliseconds() -> Int64 {
        current.withLock { current in
            defer { current += step }
            return current
        }
    }

    /// Moves the clock to `time`.
    public func set(_ time: Timestamp) {
        current.withLock { $0 = time.milliseconds }
    }
}

/// Ids `prefix-0001`, `prefix-0002`, ... (for tests).
public final class SequentialIDs: IDSource, Sendable {
    private let next = Locked(1)
    private let prefix: String

    public init(prefix: String = "id") { self.prefix = prefix }

    public func makeID() -> String {
        let value = next.withLock { next in
            defer { next += 1 }
            return next
        }
        let digits = String(value)
        return prefix + "-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
