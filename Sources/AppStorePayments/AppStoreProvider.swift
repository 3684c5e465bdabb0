import Foundation
import Payments
import StoreWire
import Synchronization

#if canImport(StoreKit)
    import StoreKit
#else
    import MockStoreKit
#endif

/// The app's App Store provider, written once against StoreKit 2's API: Apple's StoreKit on Apple platforms,
/// `MockStoreKit` over a running mockstore on Linux. No HTTP, no JSON, nothing of the mock store's: what StoreKit
/// hands over (a signed transaction's JWS) goes to the top-up flow, which verifies it, records it, then finishes it.
public struct AppStoreProvider: StoreProvider {
    /// Part of every top-up's id: `mockstore` on Linux (its ledgers' ids stay as they were), `appstore` elsewhere.
    public let name: String
    public let takesMoney = true
    private let seen = SeenTransactions()

    /// The provider's name where it runs: `appstore` over Apple's StoreKit, `mockstore` over MockStoreKit.
    public static var defaultName: String {
        #if canImport(StoreKit)
            return "appstore"
        #else
            return "mockstore"
        #endif
    }

    /// The store in words: the App Store, or on Linux the mock store that MockStoreKit talks to.
    public var displayName: String {
        #if canImport(StoreKit)
            return "App Store"
        #else
            return "mock store"
        #endif
    }

    public init(name: String = AppStoreProvider.defaultName) {
        self.name = name
    }

    public func products(for ids: [String]) async throws -> [StoreProduct] {
        try await AppStoreErrors.mapped {
            try await Product.products(for: ids).map { product in
                StoreProduct(
                    id: product.id, type: Self.type(product.type), displayName: product.displayName,
                    description: product.description, displayPrice: product.displayPrice)
            }
        }
    }

    public func purchase(_ productID: String, appAccountToken: UUID?) async throws -> PurchaseOutcome {
        guard
            let product = try await AppStoreErrors.beforeSending({ try await Product.products(for: [productID]).first })
        else { throw StoreError.productUnavailable(productID) }
        let result: Product.PurchaseResult
        do {
            result = try await product.purchase(options: appAccountToken.map { [.appAccountToken($0)] } ?? [])
        } catch StoreKitError.userCancelled {
            return .userCancelled
        } catch {
            throw AppStoreErrors.storeError(error, productID: productID)
        }
        switch result {
        case .success(let verification):
            seen.remember(verification.unsafePayloadValue)
            return .success(.signed(SignedTransaction(jwsRepresentation: verification.jwsRepresentation)))
        case .pending:
            // StoreKit says neither what it waits for nor which transaction: it arrives as an update.
            return .pending(reason: nil, transactionID: nil)
        case .userCancelled:
            return .userCancelled
        @unknown default:
            throw StoreError.unknown("the App Store gave a purchase result this app does not know")
        }
    }

    public func unfinished() async throws -> [SignedTransaction] {
        await signed(Transaction.unfinished)
    }

    /// Tells the store `transactionID` was delivered, then looks: StoreKit's `finish()` never says whether the store
    /// heard it, so one still unfinished afterwards is a finish that failed (the next collect finishes it).
    public func finish(transactionID: String) async throws {
        if let transaction = seen.transaction(id: transactionID) {
            await transaction.finish()
        } else {
            for await result in Transaction.unfinished where String(result.unsafePayloadValue.id) == transactionID {
                await result.unsafePayloadValue.finish()
            }
        }
        for await result in Transaction.unfinished where String(result.unsafePayloadValue.id) == transactionID {
            throw StoreError.unknown("the store still holds transaction \(transactionID) unfinished")
        }
    }

    /// `AppStore.sync()`: the user asked to bring purchases up to date.
    public func sync() async throws {
        try await AppStoreErrors.mapped { try await AppStore.sync() }
    }

    /// StoreKit keeps no cursor: every transaction of the customer in its latest state (`Transaction.all`, finished
    /// consumables among them with `SKIncludeConsumableInAppPurchaseHistory`), so the flow brings each refund, partial
    /// refund and reversal into the ledger; applying them is idempotent.
    public func updates(after cursor: String?) async throws -> (
        signedTransactions: [SignedTransaction], cursor: String?
    ) {
        (await signed(Transaction.all), nil)
    }

    /// Listens to `Transaction.updates` (started at launch, as Apple asks): each transaction the store hands over, its
    /// launch's unfinished ones first, goes to `deliver`, until the task is cancelled.
    public func listen(_ deliver: @escaping @Sendable (SignedTransaction) async -> Void) -> Task<Void, Never> {
        let seen = seen
        return Task {
            for await result in Transaction.updates {
                seen.remember(result.unsafePayloadValue)
                await deliver(SignedTransaction(jwsRepresentation: result.jwsRepresentation))
            }
        }
    }

    /// The JWS of each transaction of `sequence`, verified or not: the flow verifies each itself and never credits
    /// or finishes one that does not verify.
    private func signed(_ sequence: Transaction.Transactions) async -> [SignedTransaction] {
        var found: [SignedTransaction] = []
        for await result in sequence {
            seen.remember(result.unsafePayloadValue)
            found.append(SignedTransaction(jwsRepresentation: result.jwsRepresentation))
        }
        return found
    }

    private static func type(_ type: Product.ProductType) -> StoreKitProductType {
        switch type {
        case .consumable: return .consumable
        case .nonConsumable: return .nonConsumable
        case .nonRenewable: return .nonRenewable
        case .autoRenewable: return .autoRenewable
        default: return .unrecognized(type.rawValue)
        }
    }
}

/// The transactions StoreKit handed this provider, by id, so a finish needs no second look at the store.
final class SeenTransactions: Sendable {
    private let transactions = Mutex<[String: Transaction]>([:])

    func remember(_ transaction: Transaction) {
        transactions.withLock { $0[String(transaction.id)] = transaction }
    }

    func transaction(id: String) -> Transaction? {
        transactions.withLock { $0[id] }
    }
}
