import Foundation
import Locking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The delegate of a store client's URLSession: it hands each task's answer, piece by piece, to that task's
/// ``StoreExchange`` (URLSession never gathers the body whole), and starts each request with its whole-request
/// deadline. On Linux its calls run on the thread that reads the network (``InlineDelegateQueue``), so each is short
/// and a task is cancelled from another queue.
final class StoreSessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let exchanges = Locked<[Int: StoreExchange]>([:])

    /// The queue to make the session with: every call at once on Linux (see ``InlineDelegateQueue``), URLSession's
    /// own elsewhere.
    static func queue() -> OperationQueue? {
        #if canImport(FoundationNetworking)
            return InlineDelegateQueue()
        #else
            return nil
        #endif
    }

    /// Sends `request` on `session` (whose delegate this is), reading at most `limit` bytes of body and cutting it
    /// off `deadline` seconds after it starts (connecting, the header and the body together).
    func run(_ request: URLRequest, in session: URLSession, deadline: TimeInterval, limit: Int) async
        -> StoreExchange.Outcome
    {
        let exchange = StoreExchange(limit: limit)
        let task = session.dataTask(with: request)
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
        return await withTaskCancellationHandler {
            task.resume()
            // URLSession's own timeouts are idle timeouts on Linux: a byte a second keeps them from firing.
            DispatchQueue.global().asyncAfter(deadline: .now() + deadline) { [weak exchange, weak task] in
                if exchange?.cutOff(.deadline) == true { task?.cancel() }
            }
            return await exchange.outcome()
        } onCancel: {
            task.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let go = exchange(for: dataTask)?.received(response) ?? false
        completionHandler(go ? .allow : .cancel)
        // The disposition alone can be slow to stop the reading while a fast store keeps the network thread busy.
        if !go { DispatchQueue.global().async { dataTask.cancel() } }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard exchange(for: dataTask)?.refuses(data) == true else { return }
        // Not on this thread: Foundation on Linux cancels synchronously on the queue this call may be running on.
        DispatchQueue.global().async { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        exchange?.completed(error)
    }

    private func exchange(for task: URLSessionTask) -> StoreExchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }
}
