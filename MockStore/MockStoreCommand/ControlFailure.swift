import Foundation
import MockStoreHTTP

/// A `mockstore control` that could not be done (exit 1): a file that is not there or holds the wrong thing, a store
/// that cannot be reached. Its words are made here, in ``words``.
enum ControlFailure: Error, Equatable {
    /// The key file at `path` could not be read; `why` says why in words.
    case unreadableKeyFile(path: String, why: String)
    /// The key file at `path` holds no P-256 key in PEM.
    case notAKeyFile(path: String)
    /// The store at `url` could not be reached; `why` is ``reason(for:url:timeout:)``'s words.
    case unreachable(url: String, why: String)

    /// What failed and why, in plain words, e.g. "cannot read the key file k.p8: there is no such file".
    var words: String {
        switch self {
        case .unreadableKeyFile(let path, let why):
            "cannot read the key file \(path): \(why)"
        case .notAKeyFile(let path):
            "the key file \(path) holds no P-256 key in PEM (a .p8 private key or a PUBLIC KEY block)"
        case .unreachable(let url, let why):
            "cannot reach the store at \(url): \(why)"
        }
    }

    /// Why the store at `url` could not be reached (`error`, thrown by ``HTTPClient``), in words: what a person can
    /// check, never libcurl's text or codes. `timeout`: the seconds the control waited.
    static func reason(for error: any Error, url: String, timeout: Double) -> String {
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
