import Foundation

/// A product a store sells, shaped like StoreKit 2's `Product`.
public struct StoreProduct: Sendable, Equatable {
    public var id: String
    /// `consumable` or `nonConsumable`.
    public var type: String
    public var displayName: String
    public var description: String
    /// As the store shows it, e.g. `£5.00`.
    public var displayPrice: String

    public init(id: String, type: String, displayName: String, description: String, displayPrice: String) {
        self.id = id
        self.type = type
        self.displayName = displayName
        self.description = description
        self.displayPrice = displayPrice
    }
}

/// What a purchase returned, shaped like StoreKit 2's `Product.PurchaseResult`.
public enum PurchaseOutcome: Sendable, Equatable {
    /// Paid: the store's signed transaction (a compact JWS), not yet verified.
    case success(signedTransaction: String)
    /// Waiting for something; it arrives later as an update. `reason` is `askToBuy` or `interrupted` when the store
    /// says (StoreKit itself does not).
    case pending(reason: String?)
    /// The user cancelled.
    case userCancelled
}

/// Errors thrown by a store, shaped like StoreKit's `StoreKitError` and `Product.PurchaseError`.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    case networkError(String)
    case systemError(String)
    case notAvailableInStorefront
    case notEntitled
    case unsupported
    case unknown(String)
    case productUnavailable(String)
    case purchaseNotAllowed
    case invalidQuantity
    /// The store answered with an error body.
    case storeResponse(status: Int, code: Int, message: String)

    public var description: String {
        switch self {
        case .networkError(let detail): return "cannot reach the store: \(detail)"
        case .systemError(let detail): return "the store failed: \(detail)"
        case .notAvailableInStorefront: return "this product is not available in this storefront"
        case .notEntitled: return "not entitled"
        case .unsupported: return "not supported by this store"
        case .unknown(let detail): return "the store failed for an unknown reason: \(detail)"
        case .productUnavailable(let id): return "the store does not sell \(id)"
        case .purchaseNotAllowed: return "purchases are not allowed on this device"
        case .invalidQuantity: return "the quantity is not allowed"
        case .storeResponse(let status, let code, let message):
            return "the store said: \(message) (HTTP \(status), error \(code))"
        }
    }
}

/// A store, shaped like StoreKit 2: products by id (unknown ids silently absent), purchase, unfinished
/// transactions, finish, and updates made outside a purchase call.
public protocol StoreProvider: Sendable {
    /// `simulated` or `mockstore`: part of every top-up's id, so two stores' transaction ids never collide.
    var name: String { get }
    /// Whether real (or sandbox) money is involved; false for the simulated store.
    var takesMoney: Bool { get }
    func products(for ids: [String]) async throws -> [StoreProduct]
    func purchase(_ productID: String, appAccountToken: UUID?) async throws -> PurchaseOutcome
    /// Every transaction not yet finished, as signed JWS.
    func unfinished() async throws -> [String]
    /// Tells the store the purchase was delivered. Idempotent.
    func finish(transactionID: String) async throws
    /// Transactions created or changed outside a purchase call since `cursor`, and the cursor to resume from.
    func updates(after cursor: String?) async throws -> (signedTransactions: [String], cursor: String?)
}
