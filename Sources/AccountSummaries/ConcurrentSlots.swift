import Foundation

/// One slot per piece of work for threads of `DispatchQueue.concurrentPerform`: each thread writes only its own
/// index, under a lock, and the caller reads them all once every thread is done.
///
/// `@unchecked Sendable`: the slots are only read and written under `lock`.
final class ConcurrentSlots<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Value?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Value) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }

    /// Every slot, nil where nothing was set.
    var values: [Value?] {
        lock.lock()
        defer { lock.unlock() }
        return slots
    }
}
