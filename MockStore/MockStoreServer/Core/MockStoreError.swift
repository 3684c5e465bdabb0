import MockStoreHTTP
import StoreWire

/// A request the store refuses, one case a kind of failure. The case gives the ``code``, the code the HTTP
/// ``status``, and ``message`` (with the nested refusals' `message`s, in the `MockStoreError+…` files) the words.
public enum MockStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No route has the path.
    case noSuchEndpoint(path: String)
    /// A route has the path, but not for this method.
    case methodNotAllowed(method: String, path: String, allowed: [String])
    /// The body is longer than the store takes.
    case payloadTooLarge(limit: Int)
    /// A failure of the store itself (the database, signing): reported, and the server stays up.
    case internalFault(InternalFault)
    /// A StoreKit error a test control or the catalogue asked for.
    case simulated(SimulatedFailure)
    /// The store was started without a test root certificate.
    case noRootCertificate
    /// The product id is not in the catalogue.
    case invalidProductId(String)
    /// An `appAccountToken` that is not a UUID.
    case invalidAppAccountToken(String)
    /// A transaction id that is not a decimal number.
    case invalidTransactionId(String)
    /// No such transaction (or not the named customer's).
    case transactionNotFound
    /// No customer is called that (the device API's `X-Mock-Customer`, a control's `--customer`).
    case customerNotFound(String)
    /// `customer remove NAME` of a customer that does not exist; `existing` are those who do, in the order added.
    case noCustomerToRemove(String, existing: [String])
    /// The text cannot name a customer.
    case invalidCustomerName(String)
    /// A request the App Store Server API refuses, in Apple's words and with Apple's code.
    case serverAPI(ServerAPIRefusal)
    /// A Send Consumption Information body Apple refuses, field by field.
    case consumption(ConsumptionRefusal)
    /// A request the store cannot read: 400, general bad request.
    case invalid(InvalidRequest)
    /// A subscription offer StoreKit would refuse: 400, naming StoreKit's error.
    case offer(OfferRefusal)
    /// A request that does not fit the store's state: 409.
    case conflict(Conflict)

    /// A StoreKit error a test control or the catalogue asked for, and the API it was asked for.
    public struct SimulatedFailure: Equatable, Sendable {
        public var failure: StoreKitFailure
        public var api: FailableAPI
        public var source: SimulatedFailureSource
    }

    /// A failure of the store itself.
    public enum InternalFault: Equatable, Sendable {
        /// Any other error, as it describes itself.
        case failure(String)
        /// A stored deferred notification is not as the store wrote it.
        case unreadableStoredNotification
        /// A stored deferred notification has no placeholder for its transaction.
        case notificationWithoutTransactionPlace
        /// The signer signs transactions only.
        case signerCannotSignNotifications
    }

    /// A failure of the store itself (the database, signing), as `error` describes itself.
    static func internalError(_ error: any Error) -> MockStoreError {
        .internalFault(.failure("\(error)"))
    }

    /// The store's error code for the case.
    public var code: StoreErrorCode {
        switch self {
        case .noSuchEndpoint, .noRootCertificate: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .payloadTooLarge: .payloadTooLarge
        case .internalFault: .generalInternal
        case .simulated: .simulatedStoreKitError
        case .invalidProductId: .invalidProductId
        case .invalidAppAccountToken: .invalidAppAccountToken
        case .invalidTransactionId: .invalidTransactionId
        case .transactionNotFound: .transactionIdNotFound
        case .customerNotFound, .noCustomerToRemove: .customerNotFound
        case .invalidCustomerName, .invalid, .offer: .generalBadRequest
        case .serverAPI(let refusal): refusal.code
        case .consumption(let refusal): refusal.code
        case .conflict: .conflict
        }
    }

    /// The HTTP status: the code's first three digits (4040010 is a 404), as every code the store sends has them.
    public var status: Int { code.rawValue / 10_000 }

    /// The words of the error, each sentence whole.
    public var message: String {
        switch self {
        case .noSuchEndpoint(let path): "No such endpoint: \(path)"
        case .methodNotAllowed(let method, let path, let allowed):
            "Method \(method) is not allowed on \(path) (allowed: \(allowed.joined(separator: ", ")))."
        case .payloadTooLarge(let limit): "The request body is larger than \(limit) bytes."
        case .internalFault(let fault): fault.message
        case .simulated(let simulated):
            "Simulated StoreKit error \(simulated.failure) for \(simulated.api.rawValue) (\(simulated.source.words))."
        case .noRootCertificate: "This store has no test root certificate."
        case .invalidProductId(let id): "Invalid product id: \"\(id)\" is not in the catalogue."
        case .invalidAppAccountToken(let token): "Invalid appAccountToken: \"\(token)\" is not a UUID."
        case .invalidTransactionId(let id): "Invalid transaction id: \"\(id)\" is not a numeric transaction id."
        case .transactionNotFound: "Transaction id not found."
        case .customerNotFound(let name):
            "No customer is called \"\(name)\": add one with `mockstore control customer add \(name)`."
        case .noCustomerToRemove(let name, let existing): Self.noCustomerToRemoveMessage(name, existing)
        case .invalidCustomerName(let name):
            "Invalid customer name \"\(name)\": a name is \(MockCustomerHeader.nameRule)."
        case .serverAPI(let refusal): refusal.message
        case .consumption(let refusal): refusal.message
        case .invalid(let refusal): refusal.message
        case .offer(let refusal): refusal.message
        case .conflict(let conflict): conflict.message
        }
    }

    /// Nothing to remove; says who there is (the first ten, in the order added) and how to list them all.
    private static func noCustomerToRemoveMessage(_ name: String, _ existing: [String]) -> String {
        let shown = existing.prefix(10).joined(separator: ", ") + (existing.count > 10 ? ", …" : "")
        let them = existing.count == 1 ? "The store has 1 customer" : "The store has \(existing.count) customers"
        return "No customer is called \"\(name)\", so there is nobody to remove. \(them): \(shown) "
            + "(`mockstore control customer list` lists them)."
    }

    public var description: String { "\(status) \(code): \(message)" }

    /// The simulated failure that made the call fail, if one did.
    public var simulatedFailure: SimulatedFailure? {
        guard case .simulated(let simulated) = self else { return nil }
        return simulated
    }

    /// The error as an HTTP response; a simulated failure also names the StoreKit error.
    public var response: HTTPResponse {
        guard let simulated = simulatedFailure else { return .error(status: status, code: code, message: message) }
        var response = HTTPResponse.json(
            SimulatedErrorBody(
                errorCode: code, errorMessage: message, api: simulated.api,
                storeKitError: simulated.failure.wireName, skErrorCode: simulated.failure.skErrorCode),
            status: status)
        response.headers = [HTTPHeader("Content-Type", HTTPResponse.jsonContentType)]
        return response
    }
}

extension MockStoreError.InternalFault {
    /// The words of the fault.
    var message: String {
        switch self {
        case .failure(let error): "Internal error: \(error)"
        case .unreadableStoredNotification: "A stored notification is unreadable."
        case .notificationWithoutTransactionPlace: "A stored notification has no place for its transaction."
        case .signerCannotSignNotifications: "This signer cannot sign notifications."
        }
    }
}
