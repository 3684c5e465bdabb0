/// Why a call of ``ServerAPIClient`` failed: a refusal with Apple's error code as a typed case, a bearer token
/// refused, or no answer that can be used.
///
/// ```swift
/// do {
///     _ = try await store.serverAPI.transactionInfo("9999")
/// } catch ServerAPIError.refused(.transactionIdNotFound, _, _) {
///     // 404, 4040010
/// }
/// ```
public enum ServerAPIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store refused with an error code: the code (``StoreErrorCode/unrecognized(_:)`` for one this library
    /// does not know, the number as sent), the HTTP status and Apple's `errorMessage`.
    case refused(ServerAPIErrorCode, status: Int, message: String)
    /// 401 with no body: the bearer token was refused (as Apple answers).
    case unauthorized
    /// Any other status without Apple's error body: the status and the body's first bytes.
    case unexpectedStatus(Int, body: String)
    /// The store answered, but not with what the endpoint answers: the request and why.
    case unreadableAnswer(request: String, why: String)
    /// The request never got an answer (nothing listening, the connection cut): the request and why.
    case unreachable(request: String, why: String)

    /// Apple's error code, for a refusal that carries one this library knows.
    public var code: ServerAPIErrorCode? {
        if case .refused(let code, _, _) = self, code.isRecognized { return code }
        return nil
    }

    public var description: String {
        switch self {
        case .refused(let code, let status, let message) where code.isRecognized:
            return "the Server API refused (\(status), error \(code.rawValue) \(code.name)): \(message)"
        case .refused(let code, let status, let message):
            return "the Server API refused (\(status), error \(code.rawValue)): \(message)"
        case .unauthorized:
            return "the Server API refused the bearer token (401): the store trusts only its own key and those given "
                + "with --api-key"
        case .unexpectedStatus(let status, let body):
            return "the Server API answered \(status): \(body.isEmpty ? "with no body" : body)"
        case .unreadableAnswer(let request, let why):
            return "the Server API's answer to \(request) cannot be read: \(why)"
        case .unreachable(let request, let why):
            return "the Server API did not answer \(request): \(why)"
        }
    }
}
