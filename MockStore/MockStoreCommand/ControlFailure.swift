import Foundation
import MockStoreHTTP

/// A `mockstore control` that could not be done, said in plain words (exit 1): a file that is not there or holds
/// the wrong thing, a store that cannot be reached.
struct ControlFailure: Error, Equatable {
    /// What failed and why, e.g. "cannot read the key file k.p8: there is no such file".
    var words: String

    init(_ words: String) { self.words = words }

    /// Why the store at `url` could not be reached (`error`, thrown by ``HTTPClient``), in words: what a person can
    /// check, never libcurl's text or codes. `timeout`: the seconds the control waited.
    static func unreachable(_ error: any Error, url: String, timeout: Double) -> String {
        guard let failure = error as? HTTPClient.Failure else { return "the request could not be sent" }
        let host = URLComponents(string: url)?.host ?? ""
        let local = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
        switch failure.kind {
        case .socketIssue where failure.isNoConnection:
            return "nothing is listening there" + (local ? "" : ", or the machine cannot be reached")
                + ". Is the store running?"
        case .socketIssue:
            return "the connection broke while the control was being sent. Did the store stop?"
        case .invalidURL:
            return "the host name cannot be found. Is the URL right?"
        case .timedOut:
            return "it did not answer within \(timeout.rounded() == timeout ? String(Int(timeout)) : String(timeout)) "
                + "seconds. Is the store stuck, or is something else listening there?"
        case .noResponse:
            return "it closed the connection without answering. Is something other than a mockstore listening there?"
        case .prematureClose:
            return "it closed the connection in the middle of its answer. Did the store stop?"
        case .invalidResponse:
            return "what answered is not speaking HTTP. Is something other than a mockstore listening there?"
        case .sslIssue:
            return "the secure connection failed (a mockstore speaks plain http://)"
        case .other:
            return "the HTTP library could not send the request"
        }
    }
}
