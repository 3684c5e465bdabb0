import CCurl
import StoreWire

extension HTTPClient {
    /// Why a request got no usable response, classified as Apple's `sendAttemptResult` values.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// What went wrong, in Apple's terms (see ``sendAttemptResult``).
        public enum Kind: Equatable, Sendable {
            /// Not an `http(s)://host[:port]/path` URL, or a host that does not resolve.
            case invalidURL
            /// The connection could not be made (refused, unreachable), or broke while sending.
            case socketIssue
            /// The TLS handshake failed: the server's certificate is not trusted, or does not name the host.
            case sslIssue
            /// No complete answer within the time allowed.
            case timedOut
            /// Connected, then closed without a byte of response.
            case noResponse
            /// Closed in the middle of the response.
            case prematureClose
            /// What came back is not HTTP.
            case invalidResponse
            /// Anything else (libcurl itself failing).
            case other
        }

        public var kind: Kind
        /// libcurl's explanation, with the URL.
        public var detail: String
        /// Whether no connection was made at all (refused: nothing listening; or the host unreachable), rather than
        /// one broken while sending: both are ``Kind/socketIssue``.
        public var isNoConnection: Bool

        /// A failure of `kind`, explained by `detail`.
        public init(kind: Kind, detail: String, isNoConnection: Bool = false) {
            self.kind = kind
            self.detail = detail
            self.isNoConnection = isNoConnection
        }

        public var description: String { detail }

        /// Apple's `sendAttemptResult` for this failure.
        public var sendAttemptResult: SendAttemptResult {
            switch kind {
            case .invalidURL, .other: .other
            case .socketIssue: .socketIssue
            case .sslIssue: .tlsIssue
            case .timedOut: .timedOut
            case .noResponse: .noResponse
            case .prematureClose: .prematureClose
            case .invalidResponse: .invalidResponse
            }
        }

        /// The failure a libcurl result code stands for; `receivedAny`: whether any of the response had arrived.
        static func kind(of code: CURLcode, receivedAny: Bool) -> Kind {
            switch code {
            case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT, CURLE_COULDNT_RESOLVE_HOST:
                .invalidURL
            case CURLE_COULDNT_CONNECT, CURLE_SEND_ERROR:
                .socketIssue
            case CURLE_OPERATION_TIMEDOUT:
                .timedOut
            case CURLE_GOT_NOTHING:
                .noResponse
            case CURLE_PARTIAL_FILE:
                .prematureClose
            case CURLE_RECV_ERROR:
                receivedAny ? .prematureClose : .noResponse
            case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING, CURLE_HTTP2:
                .invalidResponse
            case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
                CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_CRL_BADFILE,
                CURLE_SSL_SHUTDOWN_FAILED:
                .sslIssue
            default:
                .other
            }
        }
    }
}
