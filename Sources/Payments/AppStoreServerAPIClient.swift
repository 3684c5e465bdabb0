import Foundation
import Signing
import StoreWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client of the App Store Server API (the mock store's today, at Apple's paths): what `credit reconcile` reads
/// the store's own record of purchases with. Every request carries Apple's bearer token, an ES256 JWT signed with an
/// App Store Connect API key (``ServerAPIToken``); HTTP is URLSession. The signed transactions it returns are not
/// verified here: the caller verifies each with the store's pinned root, as it verifies receipts.
public struct AppStoreServerAPIClient: Sendable {
    public let baseURL: URL
    public let token: ServerAPIToken
    /// The most pages of transaction history followed (``StoreError/historyDidNotEnd(pages:)`` past it).
    public let pageLimit: Int
    private let http: StoreHTTP

    /// The most bytes of an answer's body read: 16 MiB, far above any page of the Server API.
    public static let defaultBodyLimit = 16 << 20

    /// The default ``pageLimit``: 1,000 pages of 20 transactions, far more than anyone buys credit packs.
    public static let defaultPageLimit = 1_000

    /// A client of the Server API at `baseURL`. Each request may take `timeout` seconds, whole (connecting, the
    /// header and the body), and read `bodyLimit` bytes of body, as the device API's client does.
    public init(
        baseURL: URL, token: ServerAPIToken, timeout: TimeInterval = StoreConfiguration.defaultRequestTimeout,
        bodyLimit: Int = AppStoreServerAPIClient.defaultBodyLimit,
        pageLimit: Int = AppStoreServerAPIClient.defaultPageLimit
    ) {
        self.baseURL = baseURL
        self.token = token
        self.pageLimit = pageLimit
        http = StoreHTTP(baseURL: baseURL, timeout: timeout, bodyLimit: bodyLimit)
    }

    /// Get Transaction History (v2) through `transactionID` (any of the customer's transactions): every page,
    /// oldest change first. A store that says `hasMore` for ever is not followed for ever: past ``pageLimit`` pages,
    /// or on a page whose `revision` was given before (no progress), it throws.
    public func history(through transactionID: String) async throws -> [SignedTransaction] {
        var transactions: [SignedTransaction] = []
        var revision: String?
        var seen: Set<String> = []
        for page in 1...max(1, pageLimit) {
            let parameters = TransactionHistoryParameters(
                transactionId: transactionID, revision: revision, sort: .ascending)
            let body = try await send(ServerAPI.history, parameters)
            transactions += body.signedTransactions.map(SignedTransaction.init(jwsRepresentation:))
            guard body.hasMore else { return transactions }
            guard seen.insert(body.revision).inserted else { throw StoreError.historyDidNotMoveOn(page: page) }
            revision = body.revision
        }
        throw StoreError.historyDidNotEnd(pages: max(1, pageLimit))
    }

    /// Get Transaction Info: one transaction, finished or not, refunded or not.
    public func transaction(_ transactionID: String) async throws -> SignedTransaction {
        let body = try await send(ServerAPI.transactionInfo, .init(transactionId: transactionID))
        return SignedTransaction(jwsRepresentation: body.signedTransactionInfo)
    }

    // MARK: HTTP

    /// Sends `endpoint` with its `parameters` (its path's and its query's), with the bearer token, and decodes its
    /// answer.
    private func send<Response: Decodable, Path>(
        _ endpoint: Endpoint<NoBody, Response, Path>, _ parameters: Path
    ) async throws -> Response {
        var request = http.request(endpoint, parameters)
        request.setValue("Bearer " + (try token.make()), forHTTPHeaderField: "Authorization")
        let data: Data
        do {
            data = try await http.data(for: request) { _ in
                StoreError.networkError("the store's Server API at \(baseURL.absoluteString) did not answer")
            }
        } catch StoreError.storeResponse(status: 401, _, _) {
            throw StoreError.storeResponse(
                status: 401, code: .unrecognized(0),
                message: "the store's Server API refused the API key (check the key id, its file and --issuer)")
        }
        return try StoreHTTP.decode(data, request.url ?? baseURL)
    }
}
