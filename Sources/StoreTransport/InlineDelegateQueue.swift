import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking

    /// The delegate queue of a store client's URLSession on Linux: it runs each delegate call at once, on the thread
    /// that reads the network, instead of queueing it.
    ///
    /// Why: Foundation on Linux hands every piece of an answer's body to the delegate through this queue, with no
    /// back-pressure. Queued, a fast store's bytes run far ahead of the delegate that counts them (on loopback,
    /// hundreds of MiB read before the delegate sees the limit pass). Run at once, the delegate counts each piece as
    /// it is read, and the reading waits for it, so no more than the limit is ever held. The delegate's calls must
    /// therefore be short and never call back into URLSession on this thread (``StoreSessionDelegate`` cancels a task
    /// from another queue).
    final class InlineDelegateQueue: OperationQueue, @unchecked Sendable {
        override func addOperation(_ block: @Sendable @escaping () -> Void) {
            block()
        }
    }
#endif
