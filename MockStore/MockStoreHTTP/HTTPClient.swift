import Foundation

/// HTTP/1.1 and HTTPS requests through libcurl: what the store uses to deliver notifications, what
/// `mockstore control` uses to reach a running store, and what the bench's clients use.
/// ``send(_:_:headers:body:timeout:trusting:maxBodyBytes:)`` makes one request on a connection of its own; an
/// ``HTTPConnection`` keeps its connection for the next request.
public enum HTTPClient {
    /// A complete response.
    public struct Response: Equatable, Sendable {
        /// The HTTP status code of the final response.
        public var status: Int
        /// Names lower-cased.
        public var headers: [String: String]
        /// The body, or its first `maxBodyBytes` when ``isBodyCut``.
        public var body: [UInt8]
        /// Whether the body was longer than the request's `maxBodyBytes`: cut there, the rest never read.
        public var isBodyCut: Bool

        /// A response with these parts (header names lower-cased).
        public init(status: Int, headers: [String: String], body: [UInt8], isBodyCut: Bool = false) {
            self.status = status
            self.headers = headers
            self.body = body
            self.isBodyCut = isBodyCut
        }
    }

    /// An `http://` or `https://` URL with a host: what the client can send to.
    public struct Target: Equatable, Sendable {
        /// The URL as given.
        public let url: String
        /// Whether the URL is `https://`.
        public let isHTTPS: Bool

        /// Checks `url`.
        ///
        /// - Throws: a ``Failure`` of kind ``Failure/Kind/invalidURL`` when it is not an `http(s)://HOST[:PORT]/PATH`
        ///   URL.
        public init(_ url: String) throws(Failure) {
            guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
                scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
            else {
                throw Failure(kind: .invalidURL, detail: "\(url) is not an http(s)://HOST[:PORT]/PATH URL")
            }
            self.url = url
            isHTTPS = scheme == "https"
        }
    }

    /// The certificate authorities an `https://` server's certificate must chain to, instead of the system's.
    public struct TrustedCertificates: Equatable, Sendable {
        /// One or more PEM `CERTIFICATE` blocks.
        public let pem: [UInt8]

        /// Certificates from PEM text.
        ///
        /// - Throws: a ``Failure`` of kind ``Failure/Kind/other`` when `pem` holds no `CERTIFICATE` block.
        public init(pem: [UInt8]) throws(Failure) {
            guard String(decoding: pem, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
                throw Failure(kind: .other, detail: "no PEM CERTIFICATE block")
            }
            self.pem = pem
        }
    }

    /// Sends one request on a connection of its own and waits, at most `timeout` seconds in all, for the whole
    /// response. `trusting`: the CAs an `https://` server must chain to (the system's when nil). `maxBodyBytes`:
    /// the most of the response's body read (see ``HTTPConnection/send(_:_:headers:body:timeout:maxBodyBytes:)``).
    public static func send(
        _ method: String, _ url: String, headers: [HTTPHeader] = [], body: [UInt8] = [], timeout: TimeInterval = 10,
        trusting certificates: TrustedCertificates? = nil, maxBodyBytes: Int = .max
    ) throws(Failure) -> Response {
        try HTTPConnection(trusting: certificates).send(
            method, url, headers: headers, body: body, timeout: timeout, maxBodyBytes: maxBodyBytes)
    }
}
