import StoreWire

/// A request the store refuses: the HTTP status and the `{"errorCode", "errorMessage"}` body to answer with.
public struct MockStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    public var status: Int
    public var code: Int
    public var message: String

    public init(status: Int, code: Int, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    public var description: String { "\(status) \(code): \(message)" }

    /// The error as an HTTP response.
    public var response: HTTPResponse {
        .error(status: status, code: code, message: message)
    }

    static func badRequest(_ message: String) -> MockStoreError {
        MockStoreError(status: 400, code: StoreErrorCode.generalBadRequest, message: message)
    }

    static func invalidProductId(_ id: String) -> MockStoreError {
        MockStoreError(
            status: 400, code: StoreErrorCode.invalidProductId,
            message: "Invalid product id: \"\(id)\" is not in the catalogue.")
    }

    static func invalidAppAccountToken(_ token: String) -> MockStoreError {
        MockStoreError(
            status: 400, code: StoreErrorCode.invalidAppAccountToken,
            message: "Invalid appAccountToken: \"\(token)\" is not a UUID.")
    }

    static func invalidTransactionId(_ id: String) -> MockStoreError {
        MockStoreError(
            status: 400, code: StoreErrorCode.invalidTransactionId,
            message: "Invalid transaction id: \"\(id)\" is not a numeric transaction id.")
    }

    static let transactionNotFound = MockStoreError(
        status: 404, code: StoreErrorCode.transactionIdNotFound, message: "Transaction id not found.")

    static func notFound(_ path: String) -> MockStoreError {
        MockStoreError(status: 404, code: StoreErrorCode.notFound, message: "No such endpoint: \(path)")
    }

    static func methodNotAllowed(_ method: String, _ path: String, allowed: [String]) -> MockStoreError {
        MockStoreError(
            status: 405, code: StoreErrorCode.methodNotAllowed,
            message: "Method \(method) is not allowed on \(path) (allowed: \(allowed.joined(separator: ", "))).")
    }

    static func payloadTooLarge(limit: Int) -> MockStoreError {
        MockStoreError(
            status: 413, code: StoreErrorCode.payloadTooLarge,
            message: "The request body is larger than \(limit) bytes.")
    }

    /// A failure of the store itself (the database, signing): reported, and the server stays up.
    static func internalError(_ error: any Error) -> MockStoreError {
        MockStoreError(status: 500, code: StoreErrorCode.generalInternal, message: "Internal error: \(error)")
    }
}
