import Foundation
import Locking

/// One slot per piece of work for threads of `DispatchQueue.concurrentPerform`: each thread writes only its own
/// index, under a lock, and the caller reads them all once every thread is done.
final class ConcurrentSlots<Value: Sendable>: Sendable {
    private let slots: Locked<[Value?]>

    init(count: Int) { slots = Locked(Array(repeating: nil, count: count)) }

    func set(_ index: Int, _ value: Value) {
        slots.withLock { $0[index] = value }
    }

    /// Every slot, nil where nothing was set.
    var values: [Value?] { slots.withLock { $0 } }
}
