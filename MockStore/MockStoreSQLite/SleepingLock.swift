import Platform

/// A value behind a plain pthread mutex, for ``GroupCommit``'s state: a waiter sleeps in the kernel at once.
/// (Synchronization's `Mutex` spins before it sleeps, and a priority-inheriting futex is dearer to take: with eight
/// requests after the database lock on two cores, the spinning took the time its holder needed.) Owns the mutex
/// and frees it in `deinit`. `@unchecked Sendable`: the value is reached only inside ``withLock(_:)``.
final class SleepingLock<Value: ~Copyable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: consuming sending Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` on the value, holding the mutex.
    func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
