import Dispatch
import Platform
import Synchronization

/// One SQLite connection (an owner's, `Store`), shared by concurrent requests through group commit.
///
/// Each piece of work runs under one lock, inside the SQLite transaction that is open at the time (a batch); the
/// first request that writes in a batch (its leader) commits it once every request that was waiting for the lock
/// has added its work. A request is answered only after the commit of the batch it ran in (a read that saw the
/// batch's uncommitted writes too): if that commit fails, every request of the batch gets the error, never a
/// success. Work that changes nothing while no batch is open closes its own read transaction at once.
///
/// Durability: the connection runs with `synchronous=NORMAL`, so a `COMMIT` only writes the batch's frames to the
/// WAL, under the lock; one flush of the WAL (``WriteAheadLog``), outside the lock, then makes every batch
/// committed so far durable, while the next batch already runs. Work of ``Durability/flushed`` (the default) is
/// answered only after the flush of its batch, and also after that of the last flushed batch committed before it
/// ran (what it may have read); work of ``Durability/committed`` (a finish) only after the commit. That is the
/// same for a purchase as `synchronous=FULL` (which flushed inside `COMMIT`, holding the lock, while every other
/// request waited for the disk), and a finish's write is made durable by the next flush.
///
/// Inside a batch, ``SQLiteDatabase/inTransaction(_:)`` is a savepoint, so a change that has to be all or nothing
/// (a purchase and its signature) still is, on its own; a body that throws keeps what it did before the throw, as
/// each statement did when it committed alone.
public final class GroupCommit<Store: GroupCommitStore>: Sendable {
    /// How durable a piece of work's writes must be before it is answered.
    public enum Durability: Sendable {
        /// On the disk: committed and the WAL flushed. A crash or a power cut after the answer keeps them.
        case flushed
        /// Committed (other connections see them), not flushed yet: a power cut or a crash of the machine before
        /// the next flush may lose them (a crash of the process alone does not). For work whose loss is harmless
        /// because it is repeated: finishing a transaction, which shows up unfinished again and is idempotent.
        case committed
    }

    /// One shared SQLite transaction; the requests that ran in it wait for its commit, and most for its flush.
    final class Batch: Sendable {
        private let committed = DispatchGroup()
        private let flushed = DispatchGroup()
        private let commitFailure = Mutex<(any Error)?>(nil)
        private let flushFailure = Mutex<(any Error)?>(nil)
        /// The pieces of work that ran in it (joined under the database lock).
        let members = Atomic<Int>(1)
        /// Whether work of ``Durability/flushed`` wrote in it (set under the database lock).
        let needsFlush = Atomic<Bool>(false)
        /// Signalled by a member that joined with nobody left waiting for the lock (or the batch full): the
        /// leader waits for it, asleep, before committing.
        let everyoneJoined = DispatchSemaphore(value: 0)

        init() {
            committed.enter()
            flushed.enter()
        }

        /// Whether its commit leaves a flush to do (before the commit: whether it will).
        var mustBeFlushed: Bool { needsFlush.load(ordering: .relaxed) }

        /// Records how the commit went and wakes who waits for it; when nothing is left to flush (a failure,
        /// nothing written that must be, or no separate flush), those waiting for the flush too. Called exactly
        /// once per batch, under the database lock; a batch to be flushed is in the ``FlushQueue`` by then.
        func finishCommit(_ error: (any Error)?, flushFollows: Bool) {
            commitFailure.withLock { $0 = error }
            committed.leave()
            if error != nil || !flushFollows || !mustBeFlushed { finishFlush(error) }
        }

        /// Records how its flush went and wakes who waits for it. Called exactly once per batch.
        func finishFlush(_ error: (any Error)?) {
            flushFailure.withLock { $0 = error }
            flushed.leave()
        }

        /// Waits for the commit; throws its error if it failed.
        func waitForCommit() throws {
            committed.wait()
            if let error = commitFailure.withLock({ $0 }) { throw error }
        }

        /// Waits for the commit and the flush after it, flushing through `queue` if no flush has taken it yet;
        /// throws the error of either.
        func waitForFlush(_ queue: FlushQueue?) throws {
            committed.wait()
            queue?.flush(self)
            flushed.wait()
            if let error = flushFailure.withLock({ $0 }) { throw error }
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
        /// The last batch committed with writes that must be flushed (perhaps not flushed yet): what a piece of
        /// work reads may come from it.
        var lastToFlush: Batch?
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
    /// The flushes of the WAL that commits leave to be done; `nil` when SQLite flushes inside `COMMIT` (a database
    /// in memory, which has nothing to flush, or one whose WAL this could not be told).
    private let log: FlushQueue?
    /// Calls of ``perform(_:)`` waiting for the lock: a leader lets them join its batch before committing.
    private let waiting = Atomic<Int>(0)

    /// Shares `store`, which it owns from now on (``close()`` closes it).
    public init(store: sending Store) {
        var log: FlushQueue?
        // Only with the WAL open here: otherwise SQLite goes on flushing inside COMMIT (FULL).
        if let path = store.database.writeAheadLogPath, !store.database.isInTransaction,
            let wal = WriteAheadLog(path: path), (try? store.database.execute("PRAGMA synchronous=NORMAL")) != nil
        {
            log = FlushQueue(log: wal)
        }
        self.log = log
        state = SleepingLock(State(store: store))
    }

    /// Batches committed (or lost) so far, and the pieces of work that waited for them: how much sharing there was.
    public var statistics: (batches: Int, work: Int) { state.withLock { ($0.batches, $0.batchedWork) } }

    /// Flushes of the WAL so far (0 when SQLite flushes inside `COMMIT`, or there is nothing to flush).
    public var flushes: Int { log?.flushes ?? 0 }

    /// Calls waiting for the database lock at this moment.
    public var waitingForLock: Int { waiting.load(ordering: .relaxed) }

    /// Runs `body` on the store inside the open batch (opening one if none is), and returns once what it saw and
    /// did is as durable as `durability` says: after the commit of that batch (and its flush) when it holds
    /// writes, at once otherwise (after the flush of what it may have read, for ``Durability/flushed``).
    ///
    /// - Throws: what `body` throws; or, when the batch could not be committed or flushed, that error.
    public func perform<Result: Sendable>(
        durability: Durability = .flushed, _ body: (inout sending Store) throws -> Result
    ) throws -> Result {
        waiting.add(1, ordering: .relaxed)
        let (outcome, batch, isLeader, earlier) = state.withLock {
            state -> (Swift.Result<Result, any Error>, Batch?, Bool, Batch?) in
            waiting.subtract(1, ordering: .relaxed)
            let earlier = state.lastToFlush
            var isLeader = false
            if state.open == nil {
                do {
                    // Deferred: work that only reads takes no write lock.
                    try state.store.database.execute("BEGIN")
                } catch {
                    return (.failure(error), nil, false, earlier)
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
            guard let open = state.open else { return (outcome, nil, false, earlier) }
            state.batchedWork += 1
            let wrote = database.totalChanges != changesBefore
            if wrote && durability == .flushed { open.needsFlush.store(true, ordering: .relaxed) }
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
                open.finishCommit(
                    BatchLost(description: "the store's transaction was rolled back: \(outcome)"), flushFollows: false)
                return (outcome, open, false, earlier)
            }
            if isLeader && !wrote {
                // Nothing written: end the read transaction now; nobody else is in it.
                state.open = nil
                state.batchedWork -= 1
                if (try? database.execute("COMMIT")) == nil {
                    try? database.execute("ROLLBACK")
                }
                open.finishCommit(nil, flushFollows: false)
                return (outcome, nil, false, earlier)
            }
            return (outcome, open, isLeader, earlier)
        }
        if isLeader, let batch {
            // Whoever is waiting for the lock now joins this batch first: its work costs no commit of its own. The
            // leader sleeps until the last of them has joined (that one signals; the condition is looked at again
            // every `joinWait` all the same). It used to spin in `sched_yield`, taking a core from the very
            // requests it waited for.
            while waiting.load(ordering: .relaxed) > 0 && batch.members.load(ordering: .relaxed) < Self.largestBatch {
                _ = batch.everyoneJoined.wait(timeout: .now() + Self.joinWait)
            }
            commit(batch)
        }
        switch durability {
        case .flushed:
            try batch?.waitForFlush(log)
            // What it read may have come from an earlier batch whose flush is still going on. (Should that flush
            // fail, its own members hear of it; this answer is given all the same.)
            if let earlier, earlier !== batch { try? earlier.waitForFlush(log) }
        case .committed:
            try batch?.waitForCommit()
        }
        return try outcome.get()
    }

    /// Commits `batch` if it is still the open one (``close()`` may have committed it already).
    private func commit(_ batch: Batch) {
        state.withLock { state in
            guard let open = state.open, open === batch else { return }
            state.open = nil
            state.batches += 1
            let error = Self.commit(state.store)
            if error == nil && open.mustBeFlushed {
                state.lastToFlush = open
                log?.add(open)
            }
            open.finishCommit(error, flushFollows: log != nil)
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

    /// Commits the open batch, if any, flushes it, and closes the database. Work after this fails.
    public func close() throws {
        try state.withLock { state in
            if let open = state.open {
                state.open = nil
                state.batches += 1
                let error = Self.commit(state.store)
                if error == nil && open.mustBeFlushed {
                    state.lastToFlush = open
                    log?.add(open)
                }
                open.finishCommit(error, flushFollows: log != nil)
            }
            // Flushed before SQLite checkpoints the WAL into the database file and removes it.
            try? state.lastToFlush?.waitForFlush(log)
            try state.store.close()
        }
    }
}
