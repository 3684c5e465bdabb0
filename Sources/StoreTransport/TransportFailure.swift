import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A URLSession failure in plain words, and whether the request may have reached the store: never a framework
/// error code (`NSURLErrorDomain error -1001`) in what a user reads.
package enum TransportFailure {
    /// The ``StoreError`` for `error`, thrown by a request to `url` that waited at most `timeout` seconds.
    package static func storeError(_ error: any Error, url: URL, timeout: TimeInterval) -> StoreError {
        let place = Self.place(of: url)
        guard let code = code(of: error) else {
            return .noAnswer("the connection to \(place) failed before an answer came")
        }
        switch code {
        case .timedOut:
            return .noAnswer("no answer from \(place) within \(seconds(timeout))")
        case .networkConnectionLost:
            return .noAnswer("the connection to \(place) was lost before it answered")
        case .badServerResponse, .cannotParseResponse, .zeroByteResource, .cannotDecodeRawData,
            .cannotDecodeContentData:
            return .noAnswer("\(place) sent an answer that cannot be read")
        case .cannotConnectToHost:
            return .networkError("nothing answers at \(place); is the store running?")
        case .cannotFindHost, .dnsLookupFailed:
            return .networkError("the host \(url.host ?? place) cannot be found")
        case .notConnectedToInternet:
            return .networkError("this device has no network connection")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
            .clientCertificateRequired:
            return .networkError("a secure connection to \(place) cannot be made")
        case .badURL, .unsupportedURL:
            return .networkError("\(url.absoluteString) is not a URL the store can be reached at")
        default:
            // Not known to have stopped before the request went out: it may have reached the store.
            return .noAnswer("the connection to \(place) failed before an answer came")
        }
    }

    /// The URL error code of `error`: a `URLError`'s, or an `NSError`'s in the URL domain (Foundation on Linux
    /// sometimes hands one over); nil for any other error.
    package static func code(of error: any Error) -> URLError.Code? {
        if let url = error as? URLError { return url.code }
        let ns = error as NSError
        guard ns.domain == NSURLErrorDomain else { return nil }
        return URLError.Code(rawValue: ns.code)
    }

    /// Where `url` points, as the words name it: host and port ("127.0.0.1:8080"), else the whole URL.
    package static func place(of url: URL) -> String {
        url.host.map { host in url.port.map { "\(host):\($0)" } ?? host } ?? url.absoluteString
    }

    /// `timeout` in words: "1 second", "10 seconds", "0.5 seconds".
    package static func seconds(_ timeout: TimeInterval) -> String {
        let whole = timeout.rounded()
        let text = whole == timeout ? String(Int(whole)) : String(timeout)
        return text + (timeout == 1 ? " second" : " seconds")
    }
}
