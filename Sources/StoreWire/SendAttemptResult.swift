/// How one try at sending a notification went (`sendAttemptResult`): Apple's `SendAttemptResult`.
///
/// Decodes any value: one Apple adds later is ``unrecognized(_:)``, kept as sent.
public enum SendAttemptResult: WireStringEnum {
    /// `SUCCESS`.
    case success
    /// `TIMED_OUT`.
    case timedOut
    /// `TLS_ISSUE`.
    case tlsIssue
    /// `CIRCULAR_REDIRECT`.
    case circularRedirect
    /// `NO_RESPONSE`.
    case noResponse
    /// `SOCKET_ISSUE`.
    case socketIssue
    /// Apple's library spells the case `unsuportedCharset`. `UNSUPPORTED_CHARSET`.
    case unsupportedCharset
    /// `INVALID_RESPONSE`.
    case invalidResponse
    /// `PREMATURE_CLOSE`.
    case prematureClose
    /// `UNSUCCESSFUL_HTTP_RESPONSE_CODE`.
    case unsuccessfulHttpResponseCode
    /// `OTHER`.
    case other
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [
        .success, .timedOut, .tlsIssue, .circularRedirect, .noResponse, .socketIssue, .unsupportedCharset,
        .invalidResponse, .prematureClose, .unsuccessfulHttpResponseCode, .other,
    ]

    public var rawValue: String {
        switch self {
        case .success: "SUCCESS"
        case .timedOut: "TIMED_OUT"
        case .tlsIssue: "TLS_ISSUE"
        case .circularRedirect: "CIRCULAR_REDIRECT"
        case .noResponse: "NO_RESPONSE"
        case .socketIssue: "SOCKET_ISSUE"
        case .unsupportedCharset: "UNSUPPORTED_CHARSET"
        case .invalidResponse: "INVALID_RESPONSE"
        case .prematureClose: "PREMATURE_CLOSE"
        case .unsuccessfulHttpResponseCode: "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
        case .other: "OTHER"
        case .unrecognized(let value): value
        }
    }
}
