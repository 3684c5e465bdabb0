import Foundation
import Locking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request to a store as its answer comes in: the body gathered piece by piece and refused as soon as it passes
/// the limit, and the request cut off at its deadline, so neither a huge answer nor a dribbling one holds the client.
/// Fed by ``StoreSessionDelegate`` (on the thread that reads the network, on Linux) and awaited by ``StoreHTTP``; a
/// lock keeps both sides.
final class StoreExchange: Sendable {
    /// Why the client stopped reading before the answer was whole.
    enum Cut: Equatable, Sendable {
        /// The whole-request deadline passed.
        case deadline
        /// The body grew (or was declared to grow) past the limit.
        case tooLarge
    }

    /// How the request ended.
    enum Outcome {
        /// The whole answer: its response and body.
        case answered(URLResponse?, Data)
        /// Cut off by the client.
        case cut(Cut)
        /// URLSession failed (no connection, connection lost…).
        case failed(any Error)
    }

    private struct State {
        var body = Data()
        var response: URLResponse?
        var ended: Outcome?
        var waiting: CheckedContinuation<Outcome, Never>?
    }

    private let limit: Int
    private let state = Locked(State())

    /// An exchange that reads at most `limit` bytes of body.
    init(limit: Int) {
        self.limit = limit
    }

    /// The response's header came; false when the answer is not to be read: it declares a body past the limit
    /// (which ends the exchange), or the exchange has ended already (cut off at its deadline).
    func received(_ response: URLResponse) -> Bool {
        let (go, refused) = state.withLock { state -> (Bool, Bool) in
            guard state.ended == nil else { return (false, false) }
            state.response = response
            return response.expectedContentLength <= Int64(limit) ? (true, false) : (false, true)
        }
        if refused { end(.cut(.tooLarge)) }
        return go
    }

    /// A piece of the body came; true when it takes the body past the limit, which ends the exchange (the caller
    /// then cancels the task, once). What passes the limit, or comes after the end, is not kept.
    func refuses(_ data: Data) -> Bool {
        let refused = state.withLock { state -> Bool in
            guard state.ended == nil else { return false }
            guard state.body.count + data.count <= limit else { return true }
            state.body.append(data)
            return false
        }
        return refused && end(.cut(.tooLarge))
    }

    /// Cuts the request off for `why`; true when it was still running (the caller then cancels its task).
    func cutOff(_ why: Cut) -> Bool {
        end(.cut(why))
    }

    /// URLSession finished the task (with `error` when it failed, or was cancelled); nothing when it was cut off.
    /// URLSession's own timeout is a backstop later than the deadline, so when it fires (the deadline's timer starved
    /// on a loaded machine) the deadline has passed too, and the exchange ends as the deadline would have ended it.
    func completed(_ error: (any Error)?) {
        guard let error else { return _ = end(state.withLock { .answered($0.response, $0.body) }) }
        _ = end(TransportFailure.code(of: error) == .timedOut ? .cut(.deadline) : .failed(error))
    }

    /// Ends the exchange with `outcome` unless it has ended already (true when this ended it), and hands it to the
    /// caller at once. A cut is not held until URLSession has finished cancelling: on Linux, cancelling waits on
    /// the thread that reads the network, which a fast store can keep busy, and the caller need not wait for it.
    @discardableResult
    private func end(_ outcome: Outcome) -> Bool {
        let (first, continuation) = state.withLock { state -> (Bool, CheckedContinuation<Outcome, Never>?) in
            guard state.ended == nil else { return (false, nil) }
            state.ended = outcome
            state.body = Data()
            defer { state.waiting = nil }
            return (true, state.waiting)
        }
        continuation?.resume(returning: outcome)
        return first
    }

    /// How the request ended, once it has.
    func outcome() async -> Outcome {
        await withCheckedContinuation { continuation in
            let already = state.withLock { state -> Outcome? in
                if state.ended == nil { state.waiting = continuation }
                return state.ended
            }
            if let already { continuation.resume(returning: already) }
        }
    }
}
