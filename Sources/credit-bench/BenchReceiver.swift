import Foundation
import MockStoreHTTP

/// A notification receiver for the bench: the store's own HTTP server (libmicrohttpd) on a free loopback port,
/// answering 200 to each POST, after `answerDelay` seconds (a server that checks and stores each notification takes
/// some time), and counting them. Held, it keeps every request waiting until ``release()``, so a store's backlog can
/// be built before it is timed.
final class BenchReceiver: HTTPHandler, @unchecked Sendable {
    // @unchecked: `received`, `held` and `lastBody` are reached only under `condition`'s lock.
    private let condition = NSCondition()
    private var received = 0
    private var held: Bool
    private var lastBody: [UInt8] = []
    private var server: HTTPServer?
    private let answerDelay: Double

    init(held: Bool, answerDelay: Double = 0) throws {
        self.held = held
        self.answerDelay = answerDelay
        server = try HTTPServer(host: "127.0.0.1", port: 0, handler: self)
    }

    deinit { server?.stop() }

    /// The URL to give `--notify`.
    var url: String { (server?.baseURL ?? "") + "/notifications" }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        // The receiver's own work, in parallel for requests in parallel (the bench is no test: it may wait).
        if answerDelay > 0 { usleep(useconds_t(answerDelay * 1_000_000)) }
        condition.lock()
        // A bench run's limit, not a test's: a store that never sends would leave the row waiting for ever.
        let deadline = Date().addingTimeInterval(600)
        while held && condition.wait(until: deadline) {}
        received += 1
        lastBody = request.body
        condition.broadcast()
        condition.unlock()
        return HTTPResponse(status: 200)
    }

    func payloadTooLarge(limit: Int) -> HTTPResponse { HTTPResponse(status: 413) }

    func requestTimeout(seconds: Double) -> HTTPResponse { HTTPResponse(status: 408) }

    /// Lets every held request through, and those after it.
    func release() {
        condition.lock()
        held = false
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `count` requests have been answered in all (at most `timeout` seconds); whether they were.
    func wait(forCount count: Int, timeout: TimeInterval) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(timeout)
        while received < count {
            guard condition.wait(until: deadline) else { return received >= count }
        }
        return true
    }

    /// How many requests have been answered.
    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return received
    }

    /// The body of the last request answered (a real notification, to send again for the baseline).
    var body: [UInt8] {
        condition.lock()
        defer { condition.unlock() }
        return lastBody
    }
}
