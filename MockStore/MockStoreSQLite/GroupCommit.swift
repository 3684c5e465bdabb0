import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One SQLite connection (an owner's, `Store`), shared by concurrent requests through group commit.
///
/// Each piece of work runs under one lock, inside the SQLite transaction that is open at the time (a batch); the
/// first request that writes in a batch (its leader) commits it once every request that was waiting for the lock
/// has added its work, so one `fsync` of the WAL (`synchronous=FULL`) makes all of them durable. A request is
/// answered only after the commit of the batch it ran in (a read that saw the batch's uncommitted writes too): if
/// that commit fails, every request of the batch gets the error, never a success. Work that changes nothing while
/// no batch is open closes its own read transaction at once.
///
/// Inside a batch, ``SQLiteDatabase/inTransaction(_:)`` is a savepoint, so a change that has to be all or nothing
/// (a purchase and its signature) still is, on its own; a body that throws keeps what it did before the throw, as
/// each statement did when it committed alone.
public final class GroupCommit<Store: GroupCommitStore>: Sendable {
    /// One shared SQLite transaction; the requests that ran in it wait for its commit.
    final class Batch: Sendable {
        private let done = DispatchGroup()
        private let failure = Mutex<(any Error)?>(nil)
        /// The pieces of work that ran in it (joined under the database lock).
        let members = Atomic<Int>(1)
        /// Signalled by a member that joined with nobody left waiting for the lock (or the batch full): the
        /// leader waits for it, asleep, before committing.
        let everyoneJoined = DispatchSemaphore(value: 0)

        init() {
            done.enter()
        }

        /// Records how the commit went and wakes every waiter. Called exactly once per batch.
        func finish(_ error: (any Error)?) {
            failure.withLock { $0 = error }
            done.leave()
        }

        /// Waits for the commit; throws its error if it failed.
        func wait() throws {
            done.wait()
            if let error = failure.withLock({ $0 }) { throw error }
        }
    }

    /// Why the work of a batch was lost before its commit.
    public struct BatchLost: Error, CustomStringConvertible {
        public var description: String
    }

    private struct State: ~Copyable {
        var store: Store
        /// The batch whose transaction is open: it holds writes not yet committed.
        var open: Batch?
        /// Batches committed or lost so far, and the pieces of work they held.
        var batches = 0
        var batchedWork = 0
    }

    /// The most pieces of work a leader waits for before committing, so that a steady stream of requests cannot
    /// hold a commit back for ever.
    public static var largestBatch: Int { 256 }

    /// How often a leader waiting for the requests queued behind it looks again without being signalled.
    static var joinWait: DispatchTimeInterval { .milliseconds(5) }

    private let state: SleepingLock<State>
    /// Calls of ``perform(_:)`` waiting for the lock: a leader lets them join its batch before committing.
    private let waiting = Atomic<Int>(0)

    /// Shares `store`, which it owns from now on (``close()`` closes it).
    public init(store: sending Store) {
        state = SleepingLock(State(store: store))
    }

    /// Batches committed (or lost) so far, and the pieces of work that waited for them: how much sharing there was.
    public var statistics: (batches: Int, work: Int) { state.withLock { ($0.batches, $0.batchedWork) } }

    /// Calls waiting for the database lock at this moment.
    public var waitingForLock: Int { waiting.load(ordering: .relaxed) }

    /// Runs `body` on the store inside the open batch (opening one if none is), and returns once what it saw and
    /// did is durable: after the commit of that batch when it holds writes, at once otherwise.
    ///
    /// - Throws: what `body` throws; or, when the batch could not be committed, the commit's error.
    public func perform<Result: Sendable>(
        _ body: (inout sending Store) throws -> Result
    ) throws -> Result {
        waiting.add(1, ordering: .relaxed)
        let (outcome, batch, isLeader) = state.withLock {
            state -> (Swift.Result<Result, any Error>, Batch?, Bool) in
            waiting.subtract(1, ordering: .relaxed)
            var isLeader = false
            if state.open == nil {
                do {
                    // Deferred: work that only reads takes no write lock.
                    try state.store.database.execute("BEGIN")
                } catch {
                    return (.failure(error), nil, false)
                }
                state.open = Batch()
                isLeader = true
            }
            let changesBefore = state.store.database.totalChanges
            let outcome: Swift.Result<Result, any Error>
            do {
                outcome = .success(try body(&state.store))
            } catch {
                outcome = .failure(error)
            }
            // `body` may have replaced the store (it is `inout`): look it up again from here on.
            let database = state.store.database
            guard let open = state.open else { return (outcome, nil, false) }
            state.batchedWork += 1
            if !isLeader {
                let members = open.members.add(1, ordering: .relaxed).newValue
                if waiting.load(ordering: .relaxed) == 0 || members >= Self.largestBatch {
                    open.everyoneJoined.signal()
                }
            }
            guard database.isInTransaction else {
                // SQLite rolled the whole transaction back (an I/O error, a full disk): the batch's work is lost.
                state.open = nil
                state.batches += 1
                state.store.rolledBack()
                open.finish(BatchLost(description: "the store's transaction was rolled back: \(outcome)"))
                return (outcome, open, false)
            }
            if isLeader && database.totalChanges == changesBefore {
                // Nothing written: end the read transaction now; nobody else is in it.
                state.open = nil
                state.batchedWork -= 1
                if (try? database.execute("COMMIT")) == nil {
                    try? database.execute("ROLLBACK")
                }
                open.finish(nil)
                return (outcome, nil, false)
            }
            return (outcome, open, isLeader)
        }
        if isLeader, let batch {
            // Whoever is waiting for the lock now joins this batch first: its work costs no fsync of its own. The
            // leader sleeps until the last of them has joined (that one signals; the condition is looked at again
            // every `joinWait` all the same). It used to spin in `sched_yield`, taking a core from the very
            // requests it waited for.
            while waiting.load(ordering: .relaxed) > 0 && batch.members.load(ordering: .relaxed) < Self.largestBatch {
                _ = batch.everyoneJoined.wait(timeout: .now() + Self.joinWait)
            }
            commit(batch)
        }
        try batch?.wait()
        return try outcome.get()
    }

    /// Commits `batch` if it is still the open one (``close()`` may have committed it already).
    private func commit(_ batch: Batch) {
        state.withLock { state in
            guard let open = state.open, open === batch else { return }
            state.open = nil
            state.batches += 1
            open.finish(Self.commit(state.store))
        }
    }

    /// `COMMIT`, and `ROLLBACK` if it failed with the transaction still open; the error, if any.
    private static func commit(_ store: Store) -> (any Error)? {
        do {
            try store.database.execute("COMMIT")
            return nil
        } catch {
            if store.database.isInTransaction {
                try? store.database.execute("ROLLBACK")
            }
            // What was rolled back may have included a setting.
            store.rolledBack()
            return error
        }
    }

    /// Commits the open batch, if any, and closes the database. Work after this fails.
    public func close() throws {
        try state.withLock { state in
            if let open = state.open {
                state.open = nil
                state.batches += 1
                open.finish(Self.commit(state.store))
            }
            try state.store.close()
        }
    }
}
