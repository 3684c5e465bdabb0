import Foundation
@_exported import StoreTransport
import StoreWire

/// A product a store sells, shaped like StoreKit 2's `Product`.
public struct StoreProduct: Sendable, Equatable {
    public var id: String
    public var type: StoreKitProductType
    public var displayName: String
    public var description: String
    /// As the store shows it, e.g. `£5.00`.
    public var displayPrice: String

    public init(id: String, type: StoreKitProductType, displayName: String, description: String, displayPrice: String) {
        self.id = id
        self.type = type
        self.displayName = displayName
        self.description = description
        self.displayPrice = displayPrice
    }
}

/// What a purchase returned, shaped like StoreKit 2's `Product.PurchaseResult`.
public enum PurchaseOutcome: Sendable, Equatable {
    /// Paid (or simulated): the transaction, not yet verified.
    case success(StoreTransaction)
    /// Waiting for something; it arrives later as an update. `reason` is nil when the store does not say (StoreKit
    /// itself never does); so is `transactionID`, the store's id for the purchase waiting (the mock store says it).
    case pending(reason: PendingReason?, transactionID: String? = nil)
    /// The user cancelled.
    case userCancelled
}

/// A store, shaped like StoreKit 2: products by id (unknown ids silently absent), purchase, unfinished
/// transactions, finish, and updates made outside a purchase call.
public protocol StoreProvider: Sendable {
    /// `simulated` or `mockstore`: part of every top-up's id, so two stores' transaction ids never collide.
    var name: String { get }
    /// The store in words, after "the": `mock store`, `App Store`. The name, unless the store says otherwise.
    var displayName: String { get }
    /// Whether real (or sandbox) money is involved, for what the screen says; false for the simulated store. What a
    /// purchase gave back is told by its type (``StoreTransaction``), not by this.
    var takesMoney: Bool { get }
    func products(for ids: [String]) async throws -> [StoreProduct]
    func purchase(_ productID: String, appAccountToken: UUID?) async throws -> PurchaseOutcome
    /// Every transaction not yet finished.
    func unfinished() async throws -> [SignedTransaction]
    /// Tells the store the purchase was delivered. Idempotent.
    func finish(transactionID: String) async throws
    /// Transactions created or changed outside a purchase call since `cursor`, and the cursor to resume from.
    func updates(after cursor: String?) async throws -> (signedTransactions: [SignedTransaction], cursor: String?)
    /// Brings the device's record of purchases up to date with the store, when the user asks (StoreKit's
    /// `AppStore.sync()`); throws when the store cannot be reached. Nothing to do for a store with no server.
    func sync() async throws
}

extension StoreProvider {
    public var displayName: String { name }

    /// A store with nothing to bring up to date.
    public func sync() async throws {}
}
