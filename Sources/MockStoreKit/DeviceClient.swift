import Foundation
internal import StoreTransport
internal import StoreWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The mock store's device API (what StoreKit asks the App Store on a phone), over the one HTTP path of the store
/// clients; every failure as StoreKit throws it.
struct DeviceClient: Sendable {
    private let http: StoreHTTP
    private let timeout: TimeInterval

    init(_ configuration: MockStoreKitConfiguration) {
        var headers = ["X-Device-Verification-ID": configuration.deviceVerificationID.uuidString.lowercased()]
        if let customer = configuration.customer { headers[MockCustomerHeader.name] = customer }
        timeout = configuration.timeout
        http = StoreHTTP(baseURL: configuration.url, timeout: configuration.timeout, headers: headers)
    }

    func products(_ ids: [String]) async throws(StoreKitError) -> [StoreProductInfo] {
        try await send(DeviceAPI.products, query: [URLQueryItem(name: "ids", value: ids.joined(separator: ","))])
            .products
    }

    /// A purchase: a simulated `Product.PurchaseError` comes as one.
    func purchase(_ request: PurchaseRequestBody) async throws -> PurchaseResponseBody {
        do {
            return try await sendRaw(DeviceAPI.purchase, body: request)
        } catch {
            throw DeviceFailure.purchaseError(error)
        }
    }

    func unfinished() async throws(StoreKitError) -> [String] {
        try await send(DeviceAPI.unfinished).signedTransactions
    }

    func all(includingConsumableHistory: Bool) async throws(StoreKitError) -> [String] {
        try await send(
            DeviceAPI.all,
            query: includingConsumableHistory ? [URLQueryItem(name: "includeConsumableHistory", value: "true")] : []
        ).signedTransactions
    }

    func currentEntitlements() async throws(StoreKitError) -> [String] {
        try await send(DeviceAPI.currentEntitlements).signedTransactions
    }

    func updates(after cursor: String?) async throws(StoreKitError) -> TransactionUpdatesBody {
        try await send(DeviceAPI.updates, query: cursor.map { [URLQueryItem(name: "after", value: $0)] } ?? [])
    }

    func finish(_ transactionID: String) async throws(StoreKitError) {
        do {
            _ = try await sendRaw(DeviceAPI.finish, [transactionID], body: EmptyBody())
        } catch {
            throw DeviceFailure.storeKitError(error)
        }
    }

    func subscriptionStatuses(group: String) async throws(StoreKitError) -> [SubscriptionStatusItem] {
        try await send(DeviceAPI.subscriptionStatus, [group]).statuses
    }

    func isEligibleForIntroOffer(group: String) async throws(StoreKitError) -> Bool {
        try await send(DeviceAPI.introOfferEligibility, [group]).isEligibleForIntroOffer
    }

    // MARK: HTTP

    /// `endpoint` sent with no body; a failure as the StoreKit error it stands for.
    private func send<Response: Decodable>(
        _ endpoint: Endpoint<NoBody, Response>, _ parameters: [String] = [], query: [URLQueryItem] = []
    ) async throws(StoreKitError) -> Response {
        do {
            return try await decoded(http.request(endpoint, parameters, query: query))
        } catch {
            throw DeviceFailure.storeKitError(error)
        }
    }

    /// `endpoint` sent with `body` (JSON); a failure as it comes (``DeviceFailure`` says what it stands for).
    private func sendRaw<Request: Encodable, Response: Decodable>(
        _ endpoint: Endpoint<Request, Response>, _ parameters: [String] = [], body: Request
    ) async throws -> Response {
        try await decoded(http.request(endpoint, parameters, body: try JSONEncoder().encode(body)))
    }

    private func decoded<Response: Decodable>(_ request: URLRequest) async throws -> Response {
        let url = request.url ?? http.baseURL
        let data = try await http.data(for: request) { TransportFailure.storeError($0, url: url, timeout: timeout) }
        return try StoreHTTP.decode(data, url)
    }
}
