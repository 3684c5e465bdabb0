import MockStoreHTTP
import StoreWire

/// A request the store refuses: the HTTP status and the `{"errorCode", "errorMessage"}` body to answer with.
public struct MockStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    public var status: Int
    public var code: StoreErrorCode
    public var message: String
    /// Set when a simulated failure made the call fail: the StoreKit error, the API and what set it.
    public var simulated: SimulatedFailure?

    /// A StoreKit error a test control or the catalogue asked for, and the API it was asked for.
    public struct SimulatedFailure: Equatable, Sendable {
        public var failure: StoreKitFailure
        public var api: FailableAPI
        public var source: SimulatedFailureSource
    }

    public init(status: Int, code: StoreErrorCode, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    public var description: String { "\(status) \(code): \(message)" }

    /// The error as an HTTP response; a simulated failure also names the StoreKit error.
    public var response: HTTPResponse {
        guard let simulated else { return .error(status: status, code: code, message: message) }
        var response = HTTPResponse.json(
            SimulatedErrorBody(
                errorCode: code, errorMessage: message, api: simulated.api,
                storeKitError: simulated.failure.wireName, skErrorCode: simulated.failure.skErrorCode),
            status: status)
        response.headers = [HTTPHeader("Content-Type", HTTPResponse.jsonContentType)]
        return response
    }

    /// A simulated StoreKit error: 503, code 5030000, the error and what set it (a test control or the catalogue
    /// file) in the message, the error in the body.
    static func simulated(_ simulated: SimulatedFailure) -> MockStoreError {
        var error = MockStoreError(
            status: 503, code: StoreErrorCode.simulatedStoreKitError,
            message: "Simulated StoreKit error \(simulated.failure) for \(simulated.api.rawValue) "
                + "(\(simulated.source.words)).")
        error.simulated = simulated
        return error
    }

    static func conflict(_ message: String) -> MockStoreError {
        MockStoreError(status: 409, code: StoreErrorCode.conflict, message: message)
    }

    static func apiError(_ status: Int, _ code: StoreErrorCode, _ message: String) -> MockStoreError {
        MockStoreError(status: status, code: code, message: message)
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

    /// No customer is called `name` (the device API's `X-Mock-Customer`, a control's `--customer`).
    static func customerNotFound(_ name: String) -> MockStoreError {
        MockStoreError(
            status: 404, code: StoreErrorCode.customerNotFound,
            message: "No customer is called \"\(name)\": add one with `mockstore control customer add \(name)`.")
    }

    /// `customer remove NAME` of a customer that does not exist: nothing to remove; says who does (the first ten,
    /// in the order added) and how to list them all.
    static func noCustomerToRemove(_ name: String, existing: [String]) -> MockStoreError {
        let shown = existing.prefix(10).joined(separator: ", ") + (existing.count > 10 ? ", …" : "")
        let them = existing.count == 1 ? "The store has 1 customer" : "The store has \(existing.count) customers"
        return MockStoreError(
            status: 404, code: StoreErrorCode.customerNotFound,
            message: "No customer is called \"\(name)\", so there is nobody to remove. \(them): \(shown) "
                + "(`mockstore control customer list` lists them).")
    }

    /// `name` cannot name a customer.
    static func invalidCustomerName(_ name: String) -> MockStoreError {
        .badRequest("Invalid customer name \"\(name)\": a name is \(MockCustomerHeader.nameRule).")
    }

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
