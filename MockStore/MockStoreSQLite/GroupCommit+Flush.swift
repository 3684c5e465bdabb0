import Dispatch
import Synchronization

extension GroupCommit {
    /// The flushes of the WAL, one at a time, each covering every batch committed before it began: while one runs,
    /// the batches committed meanwhile wait, and the next flush takes all of them (one `fdatasync` for the lot,
    /// not one each, queued behind one another in the kernel).
    final class FlushQueue: Sendable {
        private struct State {
            /// Batches committed with writes that must be flushed, not taken by a flush yet.
            var pending: [Batch] = []
            /// The flush running now, left when it is done.
            var running: DispatchGroup?
        }

        private let state = Mutex(State())
        let log: WriteAheadLog

        init(log: WriteAheadLog) {
            self.log = log
        }

        /// The flushes of the WAL so far.
        var flushes: Int { log.flushes }

        /// Called at the commit of a batch that must be flushed, before anyone waiting for the commit wakes.
        func add(_ batch: Batch) {
            state.withLock { $0.pending.append(batch) }
        }

        /// Returns once a flush has taken `batch` (this call's, or another's still running: then wait for
        /// `batch`'s own signal); returns at once for a batch that was never to be flushed.
        func flush(_ batch: Batch) {
            while true {
                let (step, taken) = state.withLock { state -> (FlushStep, [Batch]) in
                    guard state.pending.contains(where: { $0 === batch }) else { return (.taken, []) }
                    if let running = state.running { return (.wait(running), []) }
                    let group = DispatchGroup()
                    group.enter()
                    let taken = state.pending
                    state.pending = []
                    state.running = group
                    return (.flush(group), taken)
                }
                switch step {
                case .taken:
                    return
                case .wait(let running):
                    running.wait()
                case .flush(let group):
                    var failure: (any Error)?
                    do {
                        try log.flush()
                    } catch {
                        failure = error
                    }
                    for each in taken { each.finishFlush(failure) }
                    state.withLock { $0.running = nil }
                    group.leave()
                    return
                }
            }
        }
    }
}

/// What a call of `FlushQueue.flush` does next: nothing (a flush took its batch), wait for the flush running, or
/// flush itself (and leave the group when done).
private enum FlushStep {
    case taken
    case wait(DispatchGroup)
    case flush(DispatchGroup)
}
