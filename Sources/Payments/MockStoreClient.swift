import Foundation
import StoreWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The store provider that talks to a running `mockstore` over HTTP (URLSession), as StoreKit talks to the App Store.
public struct MockStoreClient: StoreProvider {
    public let name = "mockstore"
    public let takesMoney = true
    public let baseURL: URL
    /// How long a request may take, whole (connecting, the header and the body), in seconds: a store still
    /// sending its answer then is cut off (``StoreError/answerTooSlow(place:seconds:)``).
    public let timeout: TimeInterval
    /// The most bytes of an answer's body read: a larger answer is refused as soon as it passes this
    /// (``StoreError/answerTooLarge(place:limit:)``), so memory stays bounded.
    public let bodyLimit: Int
    private let http: StoreHTTP

    /// The default ``timeout``: 10 seconds.
    public static let defaultTimeout: TimeInterval = 10

    /// The default ``bodyLimit``: 16 MiB, far above any answer of the store's device API.
    public static let defaultBodyLimit = StoreHTTP.defaultBodyLimit

    public init(
        baseURL: URL, timeout: TimeInterval = MockStoreClient.defaultTimeout,
        bodyLimit: Int = MockStoreClient.defaultBodyLimit
    ) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.bodyLimit = bodyLimit
        http = StoreHTTP(baseURL: baseURL, timeout: timeout, bodyLimit: bodyLimit)
    }

    public func products(for ids: [String]) async throws -> [StoreProduct] {
        var components = URLComponents(url: url("/storekit/v1/products"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "ids", value: ids.joined(separator: ","))]
        let body: StoreProductsBody = try await send("GET", components.url!)
        return body.products.map {
            StoreProduct(
                id: $0.id, type: $0.type, displayName: $0.displayName,
                description: $0.description,
                displayPrice: $0.displayPrice)
        }
    }

    public func purchase(_ productID: String, appAccountToken: UUID?) async throws -> PurchaseOutcome {
        let request = PurchaseRequestBody(
            productId: productID, quantity: 1, appAccountToken: appAccountToken?.uuidString.lowercased())
        let body: PurchaseResponseBody
        do {
            body = try await send("POST", url("/storekit/v1/purchases"), body: request)
        } catch StoreError.systemError(let detail) {
            // An answer came that cannot be read: the purchase may have been made all the same.
            throw StoreError.noAnswer(detail)
        }
        switch body.result {
        case "success":
            guard let signed = body.signedTransaction else {
                throw StoreError.noAnswer("the store said the purchase succeeded but sent no signed transaction")
            }
            return .success(.signed(SignedTransaction(jwsRepresentation: signed)))
        case "pending":
            return .pending(
                reason: body.pendingReason, transactionID: body.transactionId)
        case "userCancelled" where body.pendingReason == .interrupted:
            // Cancelled as StoreKit 2 reports an interrupted purchase; the mock store says it waits, and it is
            // credited when the issue is resolved.
            return .pending(reason: .interrupted, transactionID: body.transactionId)
        case "userCancelled": return .userCancelled
        default: throw StoreError.unknown("unknown purchase result \"\(body.result)\"")
        }
    }

    public func pendingPurchaseStatus(transactionID: String) async throws -> PendingPurchaseStatus? {
        let escaped = transactionID.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? transactionID
        let body: PurchaseStatusBody
        do {
            body = try await send("GET", url("/storekit/v1/purchases/\(escaped)"))
        } catch StoreError.storeResponse(status: 404, _, _) {
            // A store without this addition, or a purchase it no longer holds: it cannot say.
            return nil
        }
        switch body.status {
        case "pending": return .waiting
        case "purchased": return .completed
        case "declined": return .declined
        default: return nil
        }
    }

    public func unfinished() async throws -> [SignedTransaction] {
        let body: SignedTransactionsBody = try await send("GET", url("/storekit/v1/transactions/unfinished"))
        return body.signedTransactions.map(SignedTransaction.init(jwsRepresentation:))
    }

    public func finish(transactionID: String) async throws {
        let escaped = transactionID.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? transactionID
        let _: EmptyBody = try await send("POST", url("/storekit/v1/transactions/\(escaped)/finish"), body: EmptyBody())
    }

    public func updates(after cursor: String?) async throws -> (
        signedTransactions: [SignedTransaction], cursor: String?
    ) {
        // Every page: the feed says when another waits (`hasMore`), and a refund or an approval on a later page
        // would otherwise wait for some later collect.
        var transactions: [SignedTransaction] = []
        // No cursor yet: every change from the store's first ("0"); without one the store answers as
        // `Transaction.updates` does at launch, with the unfinished transactions only.
        var position: String? = cursor ?? "0"
        for _ in 0..<10_000 {
            var components = URLComponents(
                url: url("/storekit/v1/transactions/updates"), resolvingAgainstBaseURL: false)!
            if let position { components.queryItems = [URLQueryItem(name: "after", value: position)] }
            let body: TransactionUpdatesBody
            do {
                body = try await send("GET", components.url!)
            } catch StoreError.storeResponse(status: 404, _, _) {
                // A store without an updates feed has nothing to say: unfinished transactions still carry everything.
                return (transactions, position)
            }
            transactions += body.signedTransactions.map(SignedTransaction.init(jwsRepresentation:))
            guard body.hasMore == true, body.cursor != position else { return (transactions, body.cursor) }
            position = body.cursor
        }
        return (transactions, position)
    }

    /// The store's test root certificate (DER), to pin it.
    public func rootCertificate() async throws -> Data {
        try await raw("GET", url("/test/v1/root-certificate"), body: nil)
    }

    // MARK: HTTP

    struct EmptyBody: Codable {}

    private func url(_ path: String) -> URL { http.url(path) }

    private func send<Response: Decodable>(_ method: String, _ url: URL) async throws -> Response {
        try StoreHTTP.decode(try await raw(method, url, body: nil), url)
    }

    private func send<Request: Encodable, Response: Decodable>(_ method: String, _ url: URL, body: Request) async throws
        -> Response
    {
        try StoreHTTP.decode(try await raw(method, url, body: try JSONEncoder().encode(body)), url)
    }

    private func raw(_ method: String, _ url: URL, body: Data?) async throws -> Data {
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return try await http.data(for: request) { TransportFailure.storeError($0, url: url, timeout: timeout) }
    }
}
