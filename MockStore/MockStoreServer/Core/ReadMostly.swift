import Platform

/// A value read by many threads at once and seldom changed, behind a readers–writer lock (`pthread_rwlock_t`).
///
/// Used for what every catalogue request reads: with a `Mutex` (a priority-inheritance futex on Linux) the
/// connection threads queued behind one another for a lookup of a few hundred nanoseconds, each hand-over a
/// context switch; readers of an rwlock only add to a counter. Writers are preferred, so a stream of readers cannot
/// hold a change back.
///
/// `@unchecked Sendable`: `value` is only read under the read lock and only changed under the write lock, and
/// `Value` is `Sendable` itself.
final class ReadMostly<Value: Sendable>: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        lock = .allocate(capacity: 1)
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        #if canImport(Glibc)
            pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        #endif
        // Fails only for lack of memory or bad attributes; a lock that was not made would fail every call below,
        // which is then a programming error worth stopping for.
        precondition(pthread_rwlock_init(lock, &attributes) == 0, "pthread_rwlock_init failed")
        pthread_rwlockattr_destroy(&attributes)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// `body` of the value, while other readers may read it too.
    func read<Result>(_ body: (Value) throws -> Result) rethrows -> Result {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(value)
    }

    /// Changes the value, alone.
    func write<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(&value)
    }
}
