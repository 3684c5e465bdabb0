import Foundation
internal import StoreTransport
internal import StoreWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The mock store's device API (what StoreKit asks the App Store on a phone), over libcurl (``CurlTransport``); every
/// failure as StoreKit throws it.
struct DeviceClient: Sendable {
    private let transport: CurlTransport
    private let baseURL: URL

    init(_ configuration: MockStoreKitConfiguration) {
        var headers = ["X-Device-Verification-ID": configuration.deviceVerificationID.uuidString.lowercased()]
        if let customer = configuration.customer { headers[MockCustomerHeader.name] = customer }
        baseURL = configuration.url
        transport = CurlTransport(baseURL: configuration.url, timeout: configuration.timeout, headers: headers)
    }

    func products(_ ids: [String]) async throws(StoreKitError) -> [StoreProductInfo] {
        try await send(DeviceAPI.products, ProductsParameters(ids: ids)).products
    }

    /// A purchase: a simulated `Product.PurchaseError` comes as one.
    func purchase(_ request: PurchaseRequestBody) async throws -> PurchaseResponseBody {
        do {
            return try await sendRaw(DeviceAPI.purchase, NoParameters(), body: request)
        } catch {
            throw DeviceFailure.purchaseError(error)
        }
    }

    func unfinished() async throws(StoreKitError) -> [String] {
        try await send(DeviceAPI.unfinished).signedTransactions
    }

    func all(includingConsumableHistory: Bool) async throws(StoreKitError) -> [String] {
        try await send(DeviceAPI.all, .init(includeConsumableHistory: includingConsumableHistory)).signedTransactions
    }

    func currentEntitlements() async throws(StoreKitError) -> [String] {
        try await send(DeviceAPI.currentEntitlements).signedTransactions
    }

    func updates(after cursor: String?) async throws(StoreKitError) -> TransactionUpdatesBody {
        try await send(DeviceAPI.updates, .init(after: cursor))
    }

    func finish(_ transactionID: String) async throws(StoreKitError) {
        do {
            _ = try await sendRaw(DeviceAPI.finish, .init(transactionId: transactionID), body: EmptyBody())
        } catch {
            throw DeviceFailure.storeKitError(error)
        }
    }

    func subscriptionStatuses(group: String) async throws(StoreKitError) -> [SubscriptionStatusItem] {
        try await send(DeviceAPI.subscriptionStatus, .init(groupId: group)).statuses
    }

    func isEligibleForIntroOffer(group: String) async throws(StoreKitError) -> Bool {
        try await send(DeviceAPI.introOfferEligibility, .init(groupId: group)).isEligibleForIntroOffer
    }

    /// The customer's app transaction, as the store signed it (a JWS); a customer the store has none for is
    /// ``DeviceFailure/appTransactionError(_:)``'s error.
    func appTransaction() async throws(StoreKitError) -> String {
        do {
            return try await exchange(DeviceAPI.appTransaction, NoParameters(), body: nil).signedAppTransaction
        } catch {
            throw DeviceFailure.appTransactionError(error)
        }
    }

    /// The storefront the customer is in now.
    func storefront() async throws(StoreKitError) -> StorefrontBody {
        try await send(DeviceAPI.storefront)
    }

    // MARK: HTTP

    private static let emptyObject = Data("{}".utf8)

    /// `endpoint`, which takes no parameters, sent with no body; a failure as the StoreKit error it stands for.
    private func send<Response: Decodable>(_ endpoint: Endpoint<NoBody, Response, NoParameters>)
        async throws(StoreKitError) -> Response
    {
        try await send(endpoint, NoParameters())
    }

    /// `endpoint` sent with its `parameters` (its path's and its query's) and no body; a failure as the StoreKit
    /// error it stands for.
    private func send<Response: Decodable, Parameters>(
        _ endpoint: Endpoint<NoBody, Response, Parameters>, _ parameters: Parameters
    ) async throws(StoreKitError) -> Response {
        do {
            return try await exchange(endpoint, parameters, body: nil)
        } catch {
            throw DeviceFailure.storeKitError(error)
        }
    }

    /// `endpoint` sent with `body` (JSON); a failure as it comes (``DeviceFailure`` says what it stands for).
    private func sendRaw<Request: Encodable, Response: Decodable, Parameters>(
        _ endpoint: Endpoint<Request, Response, Parameters>, _ parameters: Parameters, body: Request
    ) async throws -> Response {
        // An empty body is the same two bytes every time (a finish's): not worth an encoder.
        let encoded = body is EmptyBody ? Self.emptyObject : try JSONEncoder().encode(body)
        return try await exchange(endpoint, parameters, body: encoded)
    }

    /// `endpoint`'s answer to `parameters` (its path's and its query's) and `body`, decoded.
    private func exchange<Request, Response: Decodable, Parameters>(
        _ endpoint: Endpoint<Request, Response, Parameters>, _ parameters: Parameters, body: Data?
    ) async throws -> Response {
        let (path, items) = endpoint.components(parameters)
        let query = items.map { URLQueryItem(name: $0.name, value: $0.value) }
        let data = try await transport.send(endpoint.method.rawValue, path, query: query, body: body)
        return try StoreHTTP.decode(data, baseURL.appendingPathComponent(path))
    }
}
