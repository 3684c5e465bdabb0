import Foundation
import Testing

@testable import StoreTransport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a request's end is read: URLSession's own timeout, a backstop after the whole-request deadline, ends the
/// exchange as the deadline does (on a loaded machine it can fire before the deadline's timer gets a thread), while
/// any other failure stays a failure.
@Suite struct StoreExchangeTests {
    func outcome(_ error: any Error) async -> StoreExchange.Outcome {
        let exchange = StoreExchange(limit: 1_024)
        exchange.completed(error)
        return await exchange.outcome()
    }

    @Test(arguments: [
        URLError(.timedOut) as any Error,
        NSError(domain: NSURLErrorDomain, code: URLError.Code.timedOut.rawValue) as any Error,
    ])
    func urlSessionsTimeoutIsTheDeadline(_ error: any Error) async {
        guard case .cut(.deadline) = await outcome(error) else {
            Issue.record("not cut at the deadline: \(await outcome(error))")
            return
        }
    }

    @Test func anotherFailureStaysAFailure() async {
        guard case .failed(let error) = await outcome(URLError(.networkConnectionLost)) else {
            Issue.record("a lost connection was not a failure")
            return
        }
        #expect((error as? URLError)?.code == .networkConnectionLost)
    }

    @Test func theFirstEndStands() async {
        let exchange = StoreExchange(limit: 1_024)
        #expect(exchange.cutOff(.tooLarge))
        exchange.completed(URLError(.timedOut))
        #expect(!exchange.cutOff(.deadline), "already ended")
        guard case .cut(.tooLarge) = await exchange.outcome() else {
            Issue.record("the body limit's cut did not stand")
            return
        }
    }
}
