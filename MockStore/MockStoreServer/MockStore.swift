import Foundation
import StoreWire
import Synchronization

/// The mock App Store: the catalogue, the transactions in SQLite and the signer, behind one lock.
///
/// Each method is one device-API call (what StoreKit does on a phone); ``MockStoreRouter`` maps them to
/// HTTP. They are called on the HTTP server's thread; the lock serialises them with anything else.
public final class MockStore: Sendable {
    /// Everything the store is made of apart from its database.
    public struct Configuration: Sendable {
        public var catalogue: StoreKitConfiguration
        /// The app's bundle id, signed into every transaction.
        public var bundleId: String
        public var signer: any TransactionSigner
        /// The test root certificate (DER) that verifies the signer's chain, when it has one.
        public var rootCertificateDER: [UInt8]?
        public var clock: any StoreClock
        public var transactionIDs: any TransactionIDSource
        /// `environment` in signed transactions.
        public var environment: String

        public init(
            catalogue: StoreKitConfiguration, bundleId: String, signer: any TransactionSigner,
            rootCertificateDER: [UInt8]? = nil, clock: any StoreClock = SystemClock(),
            transactionIDs: any TransactionIDSource = SandboxTransactionIDs(), environment: String = "Sandbox"
        ) {
            self.catalogue = catalogue
            self.bundleId = bundleId
            self.signer = signer
            self.rootCertificateDER = rootCertificateDER
            self.clock = clock
            self.transactionIDs = transactionIDs
            self.environment = environment
        }
    }

    /// Keys of the runtime settings kept in the database (they override the catalogue's settings).
    public enum SettingKey {
        /// `"true"` or `"false"`: purchases wait for approval (Ask to Buy).
        public static let askToBuyEnabled = "askToBuyEnabled"
    }

    /// The quantities one purchase may buy (StoreKit's `quantity` purchase option).
    public static let allowedQuantities = 1...10

    public let configuration: Configuration
    private let database: Mutex<TransactionStore>

    /// A store over `database`, which it owns from now on (and closes in ``close()``).
    public init(configuration: Configuration, database: sending TransactionStore) {
        self.configuration = configuration
        self.database = Mutex(database)
    }

    /// The test root certificate (DER), if the store signs with a chain.
    public var rootCertificateDER: [UInt8]? { configuration.rootCertificateDER }

    // MARK: Device API

    /// The products with these ids, in the order asked, each once; unknown ids are left out.
    public func products(ids: [String]) -> [StoreProductInfo] {
        var seen = Set<String>()
        let catalogue = configuration.catalogue
        return ids.compactMap { id in
            guard seen.insert(id).inserted, let product = catalogue.product(id: id) else { return nil }
            return info(for: product)
        }
    }

    /// Buys a product: success with the signed transaction, or pending when Ask to Buy is on.
    ///
    /// - Throws: ``MockStoreError`` for an unknown product (4000023), a bad quantity (4000000), an
    ///   `appAccountToken` that is not a UUID (4000183), or a failure of the store (500).
    public func purchase(_ request: PurchaseRequestBody) throws(MockStoreError) -> PurchaseResponseBody {
        guard let product = configuration.catalogue.product(id: request.productId) else {
            throw .invalidProductId(request.productId)
        }
        let quantity = request.quantity ?? 1
        let allowed = product.type.allowsQuantity ? Self.allowedQuantities : 1...1
        guard allowed.contains(quantity) else {
            throw .badRequest(
                "Invalid quantity \(quantity): \(product.type.storeKitName) products take \(allowed.lowerBound)"
                    + (allowed.count > 1 ? " to \(allowed.upperBound)." : " only."))
        }
        if let token = request.appAccountToken, UUID(uuidString: token) == nil {
            throw .invalidAppAccountToken(token)
        }
        return try withDatabase { database in
            if product.type == .nonConsumable, let owned = try database.latestActivePurchase(productId: product.id) {
                // As StoreKit does: an owned non-consumable is given back, not sold twice.
                return PurchaseResponseBody(result: "success", signedTransaction: try sign(owned))
            }
            let storefront = configuration.catalogue.storefront
            let new = NewTransaction(
                productId: product.id, productType: product.type.transactionType, quantity: quantity,
                price: product.priceMilliunits * Int64(quantity), currency: storefront.currency,
                storefront: storefront.code, storefrontId: storefront.storefrontId,
                purchaseDate: configuration.clock.now().millisecondsSince1970,
                appAccountToken: request.appAccountToken,
                status: try askToBuyEnabled(database) ? .pending : .purchased)
            if new.status == .pending {
                try database.insert(new, ids: configuration.transactionIDs)
                return PurchaseResponseBody(result: "pending")
            }
            // Recorded and signed in one database transaction: a signing failure records nothing.
            let signed = try database.insert(new, ids: configuration.transactionIDs, confirm: { try sign($0) })
            return PurchaseResponseBody(result: "success", signedTransaction: signed)
        }
    }

    /// Every paid transaction the app has not finished, signed now, oldest first.
    public func unfinishedTransactions() throws(MockStoreError) -> [String] {
        try withDatabase { database in
            try database.unfinishedTransactions().map { try sign($0) }
        }
    }

    /// Finishes a transaction; finishing one twice is fine.
    ///
    /// - Throws: ``MockStoreError``: 4000006 for an id that is not numeric, 4040010 for an unknown one.
    public func finish(transactionId: String) throws(MockStoreError) {
        guard Self.isTransactionId(transactionId) else { throw .invalidTransactionId(transactionId) }
        let outcome = try withDatabase { database in
            try database.finish(id: transactionId, at: configuration.clock.now().millisecondsSince1970)
        }
        if outcome == .notFound {
            throw .transactionNotFound
        }
    }

    // MARK: Lifecycle

    /// Closes the database. Calls after this fail with a 500.
    public func close() throws {
        try database.withLock { try $0.close() }
    }

    /// Every transaction, for inspection (tests, future test controls).
    public func allTransactions() throws(MockStoreError) -> [StoredTransaction] {
        try withDatabase { try $0.allTransactions() }
    }

    // MARK: Internals

    private func info(for product: CatalogueProduct) -> StoreProductInfo {
        let catalogue = configuration.catalogue
        let localization = product.localization(for: catalogue.locale)
        return StoreProductInfo(
            id: product.id, type: product.type.storeKitName,
            displayName: localization?.displayName ?? product.referenceName,
            description: localization?.description ?? "",
            displayPrice: PriceFormatter.displayPrice(
                product.displayPrice, currency: catalogue.storefront.currency, locale: catalogue.locale),
            price: product.displayPrice, currency: catalogue.storefront.currency)
    }

    private func sign(_ transaction: StoredTransaction) throws -> String {
        let payload = transaction.signedPayload(
            bundleId: configuration.bundleId, signedDate: configuration.clock.now().millisecondsSince1970,
            environment: configuration.environment)
        return try configuration.signer.sign(payload)
    }

    private func askToBuyEnabled(_ database: TransactionStore) throws -> Bool {
        if let stored = try database.setting(SettingKey.askToBuyEnabled) {
            return stored == "true"
        }
        return configuration.catalogue.settings.askToBuyEnabled ?? false
    }

    /// Runs `body` under the lock; any error that is not already a ``MockStoreError`` becomes a 500.
    private func withDatabase<Result: Sendable>(
        _ body: (inout sending TransactionStore) throws -> Result
    ) throws(MockStoreError) -> Result {
        do {
            return try database.withLock { try body(&$0) }
        } catch let error as MockStoreError {
            throw error
        } catch {
            throw .internalError(error)
        }
    }

    /// Apple's transaction ids are decimal numbers (`2000000376851165`).
    static func isTransactionId(_ text: String) -> Bool {
        (1...32).contains(text.utf8.count)
            && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
