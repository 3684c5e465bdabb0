import Clocks
import Dispatch
import Foundation
import MockStoreHTTP
import MockStoreSQLite
import Signing
import StoreKitCatalogue
import StoreWire
import Synchronization

/// The mock App Store: the catalogue, the transactions in SQLite and the signer.
///
/// Each method is one device-API call (what StoreKit does on a phone); ``MockStoreRouter`` maps them to
/// HTTP. They are called concurrently, on the HTTP server's connection threads: the database is used under one
/// lock, and the writes of concurrent calls are committed together (``GroupCommit``), each call returning only
/// once what it did is durable. Everything else the store holds is immutable or behind its own lock.
public final class MockStore: Sendable {
    /// Everything the store is made of apart from its database.
    public struct Configuration: Sendable {
        public var catalogue: StoreKitConfiguration
        /// The app's bundle id, signed into every transaction.
        public var bundleId: String
        /// Signs what the device API hands out (`--signing`).
        public var signer: any TransactionSigner
        /// Signs Server API answers and notifications: the test CA's ES256, whatever `--signing` says (a server
        /// verifies with Apple's chain rules). `nil`: ``signer``.
        public var serverSigner: (any TransactionSigner)?
        /// The test root certificate (DER) that verifies the signer's chain, when it has one.
        public var rootCertificateDER: [UInt8]?
        public var clock: any StoreClock
        public var transactionIDs: any TransactionIDSource
        /// `environment` in signed transactions, notifications and Server API answers.
        public var environment: AppStoreEnvironment
        /// `appAppleId` in Server API answers and notifications (production only: Apple leaves it out in the
        /// sandbox).
        public var appAppleId: Int64?
        /// `bundleVersion` in notifications.
        public var bundleVersion: String
        /// Where notifications are POSTed (`--notify`); `nil`: recorded, never sent.
        public var notificationURL: String?
        /// How often and when a failed notification is tried again.
        public var retryPolicy: NotificationRetryPolicy
        /// The keys that sign Server API bearer tokens, by `kid`; empty: any well-formed token is accepted.
        public var apiKeys: [String: P256PublicKey]

        /// The App Store's production environment: notifications are retried and carry `appAppleId`.
        public var isProduction: Bool { environment == .production }
        /// `appAppleId` as answers carry it: left out in the sandbox, as Apple does.
        public var appAppleIdInAnswers: Int64? { isProduction ? appAppleId : nil }

        /// `appAppleId` when none is given (a mock value; `mockstore`'s `--app-apple-id` defaults to it).
        public static let defaultAppAppleId: Int64 = 1_234_567_890
        /// `bundleVersion` when none is given (`mockstore`'s `--bundle-version` defaults to it).
        public static let defaultBundleVersion = "1"

        public init(
            catalogue: StoreKitConfiguration, bundleId: String, signer: any TransactionSigner,
            serverSigner: (any TransactionSigner)? = nil, rootCertificateDER: [UInt8]? = nil,
            clock: any StoreClock = SystemClock(), transactionIDs: any TransactionIDSource = SandboxTransactionIDs(),
            environment: AppStoreEnvironment = .sandbox, appAppleId: Int64? = Self.defaultAppAppleId,
            bundleVersion: String = Self.defaultBundleVersion, notificationURL: String? = nil,
            retryPolicy: NotificationRetryPolicy = NotificationRetryPolicy(), apiKeys: [String: P256PublicKey] = [:]
        ) {
            self.catalogue = catalogue
            self.bundleId = bundleId
            self.signer = signer
            self.serverSigner = serverSigner
            self.rootCertificateDER = rootCertificateDER
            self.clock = clock
            self.transactionIDs = transactionIDs
            self.environment = environment
            self.appAppleId = appAppleId
            self.bundleVersion = bundleVersion
            self.notificationURL = notificationURL
            self.retryPolicy = retryPolicy
            self.apiKeys = apiKeys
        }
    }

    /// Keys of the runtime settings kept in the database (they override the catalogue's settings).
    public enum SettingKey {
        /// `"true"` or `"false"`: purchases wait for approval (Ask to Buy).
        public static let askToBuyEnabled = "askToBuyEnabled"
        /// `"true"` or `"false"`: purchases are interrupted and wait to be resolved.
        public static let interruptedPurchasesEnabled = "interruptedPurchasesEnabled"
        /// An ISO 3166-1 alpha-3 storefront code.
        public static let storefront = "storefront"
        /// A locale identifier such as `en_GB`.
        public static let locale = "locale"
    }

    /// The quantities one purchase may buy (StoreKit's `quantity` purchase option).
    public static let allowedQuantities = 1...10

    /// How many transactions one page of the updates feed carries.
    public static let updatesPageSize = 50

    public let configuration: Configuration
    /// The database, shared by concurrent calls through group commit.
    let database: GroupCommit<TransactionStore>
    /// Encoded product lists, by what they depend on.
    let productsBodies = ProductsBodyCache()
    /// The settings products are shown with, kept while no setting or failure changes.
    let productSettingsCache = ProductSettingsCache()
    /// Signalled when a notification is due now; the ``NotificationDispatcher`` waits on it.
    public let notificationsDue = DispatchSemaphore(value: 0)
    /// The default customer's app transaction: its id and when the app was first got (kept in the database).
    let appTransaction: TransactionStore.AppTransactionRecord
    /// The app transaction of the customer each call acts for, for the signing code.
    let customerAppTransactions: CustomerAppTransactions
    /// The virtual clock and the subscription lifecycle (``MockStore+Subscriptions``).
    let subscriptionRuntime: SubscriptionRuntime
    /// The subscription offer keys promotional offers are checked with (``MockStore+Offers``).
    let promotionalOfferKeys = PromotionalOfferKeys()

    /// A store over `database`, which it owns from now on (and closes in ``close()``).
    public init(configuration: Configuration, database: sending TransactionStore) {
        // Every date the store reads comes from the virtual clock (real time until it is moved or sped up).
        let runtime = SubscriptionRuntime(
            catalogue: configuration.catalogue, base: configuration.clock, database: database,
            isProduction: configuration.isProduction)
        var configuration = configuration
        configuration.clock = runtime.clock
        subscriptionRuntime = runtime
        self.configuration = configuration
        let productSettingsCache = self.productSettingsCache
        database.settingsMayHaveChanged = { productSettingsCache.invalidate() }
        let notificationSigner = configuration.serverSigner ?? configuration.signer
        database.sealNotification = { try DeferredNotification.seal($0, signer: notificationSigner) }
        let now = configuration.clock.now().millisecondsSince1970
        // Made on first start and kept: a database that cannot give it fails every later call anyway.
        appTransaction =
            (try? database.appTransactionRecord(now: now))
            ?? TransactionStore.AppTransactionRecord(
                id: TransactionStore.newAppTransactionId(), originalPurchaseDate: now)
        customerAppTransactions = CustomerAppTransactions(defaultCustomer: appTransaction)
        // Every customer's, so a transaction is signed with its own customer's whatever the call acts for.
        for customer in (try? database.allCustomers()) ?? [] {
            customerAppTransactions.learn(customer)
        }
        database.appTransactions = customerAppTransactions
        self.database = GroupCommit(store: database)
    }

    /// The test root certificate (DER), if the store signs with a chain.
    public var rootCertificateDER: [UInt8]? { configuration.rootCertificateDER }

    // MARK: Device API

    /// The products with these ids, in the order asked, each once; unknown ids are left out.
    ///
    /// - Throws: ``MockStoreError`` for a simulated `loadProducts` failure, or a failure of the store.
    public func products(ids: [String]) throws(MockStoreError) -> [StoreProductInfo] {
        let (inForce, localeInForce) = try productSettings()
        return products(ids: ids, storefront: inForce, locale: localeInForce)
    }

    /// The JSON body answering a products request (`{"products": [...]}` of ``products(ids:)``), encoded once for
    /// each list of ids, currency and locale and then kept (``ProductsBodyCache``): the storefront and locale in
    /// force are read on every call, so a test control that changes them changes the next answer.
    ///
    /// - Throws: ``MockStoreError`` for a simulated `loadProducts` failure, or a failure of the store.
    public func productsBody(ids: [String]) throws(MockStoreError) -> [UInt8] {
        let (inForce, localeInForce) = try productSettings()
        let key = ProductsBodyCache.Key(ids: ids, currency: inForce.currency, locale: localeInForce)
        if let kept = productsBodies.body(for: key) { return kept }
        let body: [UInt8]
        do {
            body = try HTTPResponse.encode(
                StoreProductsBody(products: products(ids: ids, storefront: inForce, locale: localeInForce)))
        } catch {
            throw .internalError(error)
        }
        productsBodies.keep(body, for: key)
        return body
    }

    /// The storefront and locale products are shown in, after a simulated `loadProducts` failure is checked: from
    /// ``ProductSettingsCache`` when it has them, else from the database (and then kept).
    private func productSettings() throws(MockStoreError) -> (Storefront, String) {
        let settings: ProductSettingsCache.Settings
        // The cache holds the default customer's storefront; another customer's is read each time.
        let isDefaultCustomer =
            (CustomerScope.name ?? MockCustomerHeader.defaultCustomer) == MockCustomerHeader.defaultCustomer
        if isDefaultCustomer, let kept = productSettingsCache.settings {
            settings = kept
        } else {
            let (read, generation, isKeepable) = try withDatabase { database in
                // Invalidations happen under this lock too, so this generation is the one the reads below see.
                let generation = productSettingsCache.generation
                let once = try failureInForce(.loadProducts, database)?.once ?? false
                let read = ProductSettingsCache.Settings(
                    storefront: try self.storefront(database), locale: try self.locale(database),
                    failure: try takeSimulatedFailure(.loadProducts, database))
                return (read, generation, !once)
            }
            // Committed by now: what was read is durable.
            if isKeepable && isDefaultCustomer {
                productSettingsCache.keep(read, readAt: generation)
            }
            settings = read
        }
        if let failure = settings.failure {
            throw .simulated(failure)
        }
        return (settings.storefront, settings.locale)
    }

    private func products(ids: [String], storefront: Storefront, locale: String) -> [StoreProductInfo] {
        var seen = Set<String>()
        let catalogue = configuration.catalogue
        return ids.compactMap { id in
            guard seen.insert(id).inserted, let product = catalogue.product(id: id) else { return nil }
            return info(for: product, storefront: storefront, locale: locale)
        }
    }

    /// Buys a product: success with the signed transaction (and a ONE_TIME_CHARGE notification), pending when Ask
    /// to Buy is on, or `userCancelled` for an interrupted purchase (as StoreKit 2 reports one: the transaction
    /// reaches the app through the updates feed once the issue is resolved), with `pendingReason: "interrupted"`
    /// and its `transactionId` beside it, which StoreKit does not give.
    ///
    /// - Throws: ``MockStoreError`` for an unknown product (4000023), a bad quantity (4000000), an
    ///   `appAccountToken` that is not a UUID (4000183), or a failure of the store (500).
    public func purchase(_ request: PurchaseRequestBody, device: DeviceVerification = DeviceVerification())
        throws(MockStoreError) -> PurchaseResponseBody
    {
        // Checked outside the lock, reported after a simulated failure (which comes first, as before).
        let checked = Swift.Result { () throws(MockStoreError) in try catalogueProduct(request) }
        // One call of the database, so a purchase waits for one commit.
        let response = try withDatabase { database in
            if let simulated = try takeSimulatedFailure(.purchase, database) {
                // StoreKit reports a cancellation as a purchase result, not an error.
                if simulated.failure.isUserCancellation { return PurchaseResponseBody(result: "userCancelled") }
                throw MockStoreError.simulated(simulated)
            }
            let product = try checked.get()
            try refuseWaitingOffer(request, product, database)
            if product.type == .autoRenewable,
                try !subscriptionPurchaseWaits(groupId: product.subscription?.groupID, database)
            {
                let verification = try takeFailure(.verification, database)
                let stored = try subscribeOrChange(product, request, database, origin: .app)
                return PurchaseResponseBody(
                    result: "success", signedTransaction: try sign(stored, verification: verification, device: device))
            }
            if product.type == .nonConsumable, let owned = try database.latestActivePurchase(productId: product.id) {
                // As StoreKit does: an owned non-consumable is given back, not sold twice.
                return PurchaseResponseBody(
                    result: "success",
                    signedTransaction: try sign(
                        owned, verification: try takeFailure(.verification, database), device: device))
            }
            let pendingReason: StoredTransaction.PendingReason? =
                try askToBuyEnabled(database)
                ? .askToBuy : try interruptedPurchasesEnabled(database) ? .interrupted : nil
            let new = try newTransaction(
                product, request, database, status: pendingReason == nil ? .purchased : .pending, origin: .app,
                pendingReason: pendingReason)
            if let pendingReason {
                let stored = try database.insert(new, ids: configuration.transactionIDs)
                // StoreKit 2 reports an interrupted purchase as cancelled; Ask to Buy as pending. The reason and
                // the id go with both (a mock store addition), so an app can tell an interrupted purchase, which
                // completes later, from a real cancellation.
                return PurchaseResponseBody(
                    result: pendingReason == .interrupted ? "userCancelled" : "pending",
                    pendingReason: pendingReason, transactionId: stored.id)
            }
            let verification = try takeFailure(.verification, database)
            // Recorded, signed and announced in one database transaction: a signing failure records nothing.
            let signed = try database.insert(new, ids: configuration.transactionIDs) { stored in
                try enqueueNotification(.oneTimeCharge, transaction: stored, database)
                return try sign(stored, verification: verification, device: device)
            }
            return PurchaseResponseBody(result: "success", signedTransaction: signed)
        }
        if response.signedTransaction != nil { notificationsDue.signal() }
        return response
    }

    /// The catalogue product a purchase asks for, after checking the request.
    ///
    /// - Throws: ``MockStoreError``: 4000023 for an unknown product, 4000000 for a bad quantity, 4000183 for an
    ///   `appAccountToken` that is not a UUID.
    func catalogueProduct(_ request: PurchaseRequestBody) throws(MockStoreError) -> CatalogueProduct {
        guard let product = configuration.catalogue.product(id: request.productId) else {
            throw .invalidProductId(request.productId)
        }
        let quantity = request.quantity ?? 1
        let allowed = product.type.allowsQuantity ? Self.allowedQuantities : 1...1
        guard allowed.contains(quantity) else {
            throw .badRequest(
                "Invalid quantity \(quantity): \(product.type.storeKitType) products take \(allowed.lowerBound)"
                    + (allowed.count > 1 ? " to \(allowed.upperBound)." : " only."))
        }
        if let token = request.appAccountToken, UUID(uuidString: token) == nil {
            throw .invalidAppAccountToken(token)
        }
        return product
    }

    /// A new transaction for `product` as `request` asks, priced in the storefront now in force.
    func newTransaction(
        _ product: CatalogueProduct, _ request: PurchaseRequestBody, _ database: TransactionStore,
        status: StoredTransaction.Status, origin: StoredTransaction.Origin,
        pendingReason: StoredTransaction.PendingReason? = nil
    ) throws -> NewTransaction {
        let storefront = try storefront(database)
        let quantity = request.quantity ?? 1
        return NewTransaction(
            productId: product.id, productType: product.type.transactionType, quantity: quantity,
            price: product.priceMilliunits * Int64(quantity), currency: storefront.currency,
            storefront: storefront.code, storefrontId: storefront.storefrontId,
            purchaseDate: configuration.clock.now().millisecondsSince1970, appAccountToken: request.appAccountToken,
            status: status, origin: origin, pendingReason: pendingReason)
    }

    /// Every paid transaction the app has not finished, signed now, oldest first.
    public func unfinishedTransactions(device: DeviceVerification = DeviceVerification()) throws(MockStoreError)
        -> [String]
    {
        try withDatabase { database in
            if let simulated = try takeSimulatedFailure(.appStoreSync, database) {
                throw MockStoreError.simulated(simulated)
            }
            let verification = try takeFailure(.verification, database)
            return try database.unfinishedTransactions().map {
                try sign($0, verification: verification, device: device)
            }
        }
    }

    /// The transactions created or changed outside a purchase call after `cursor` (an approved Ask to Buy, a
    /// resolved interrupted purchase, an outside purchase, a refund or its reversal), each once in its latest
    /// state, signed now; and the cursor to resume from. No cursor, as `Transaction.updates` at launch: every
    /// unfinished transaction, once, and the cursor of now. A cursor beyond anything this store has numbered (its
    /// data was wiped) is treated as none.
    ///
    /// - Throws: ``MockStoreError``: 4000000 for a cursor that is not a number, a simulated `appStoreSync`
    ///   failure, a failure of the store.
    public func updates(after cursor: String?, device: DeviceVerification = DeviceVerification())
        throws(MockStoreError) -> TransactionUpdatesBody
    {
        var after: Int64 = -1
        if let cursor {
            guard let value = Int64(cursor), value >= 0 else {
                throw .badRequest("Invalid cursor \"\(cursor)\": give back the cursor of an earlier answer.")
            }
            after = value
        }
        return try withDatabase { database in
            if let simulated = try takeSimulatedFailure(.appStoreSync, database) {
                throw MockStoreError.simulated(simulated)
            }
            let highWater = try database.changeSequenceHighWater()
            let verification = try takeFailure(.verification, database)
            if after < 0 || after > highWater {
                let unfinished = try database.unfinishedTransactions().map {
                    try sign($0, verification: verification, device: device)
                }
                return TransactionUpdatesBody(signedTransactions: unfinished, cursor: String(highWater), hasMore: false)
            }
            let page = try database.updates(after: after, limit: Self.updatesPageSize)
            let signed = try page.updates.map { try sign($0.0, verification: verification, device: device) }
            let cursor = page.hasMore ? (page.updates.last?.1 ?? after) : highWater
            return TransactionUpdatesBody(signedTransactions: signed, cursor: String(cursor), hasMore: page.hasMore)
        }
    }

    /// Finishes a transaction; finishing one twice is fine.
    ///
    /// - Throws: ``MockStoreError``: 4000006 for an id that is not numeric, 4040010 for an unknown one.
    public func finish(transactionId: String) throws(MockStoreError) {
        guard Self.isTransactionId(transactionId) else { throw .invalidTransactionId(transactionId) }
        // Committed, not waiting for the flush: a finish lost in a power cut is harmless (the transaction shows up
        // unfinished again, and finishing is idempotent); the next purchase's flush makes it durable.
        let outcome = try withDatabase(durability: .committed) { database in
            if let simulated = try takeSimulatedFailure(.finish, database) {
                throw MockStoreError.simulated(simulated)
            }
            if let transaction = try database.transaction(id: transactionId) {
                try database.adopt(transaction)
            }
            return try database.finish(id: transactionId, at: configuration.clock.now().millisecondsSince1970)
        }
        if outcome == .notFound {
            throw .transactionNotFound
        }
    }

    // MARK: Lifecycle

    /// Closes the database (committing what concurrent calls are waiting for first). Calls after this fail with
    /// a 500.
    public func close() throws {
        try database.close()
    }

    /// How many shared commits the store has made, and how many calls' writes they held.
    public var commitStatistics: (commits: Int, calls: Int) {
        let statistics = database.statistics
        return (statistics.batches, statistics.work)
    }

    /// Every transaction, for inspection (tests, future test controls).
    public func allTransactions() throws(MockStoreError) -> [StoredTransaction] {
        try withDatabase { try $0.allTransactions() }
    }

    // MARK: Internals

    private func info(for product: CatalogueProduct, storefront: Storefront, locale: String) -> StoreProductInfo {
        let localization = product.localization(for: locale)
        return StoreProductInfo(
            id: product.id, type: product.type.storeKitType,
            displayName: localization?.displayName ?? product.referenceName,
            description: localization?.description ?? "",
            displayPrice: PriceFormatter.displayPrice(
                product.displayPrice, currency: storefront.currency, locale: locale),
            price: product.displayPrice, currency: storefront.currency, isFamilyShareable: product.familyShareable,
            subscription: configuration.catalogue.subscriptionInfo(of: product, storefront: storefront, locale: locale))
    }

    /// Runs `body` under the database lock, in the shared transaction of the moment, and returns once that is
    /// committed and, unless `durability` says otherwise, on the disk (``GroupCommit/perform(durability:_:)``);
    /// any error that is not already a ``MockStoreError`` (a failed commit among them) becomes a 500. The body acts
    /// for the customer the request names (``CustomerScope``), the default customer when it names none.
    func withDatabase<Result: Sendable>(
        durability: GroupCommit<TransactionStore>.Durability = .flushed,
        _ body: (inout sending TransactionStore) throws -> Result
    ) throws(MockStoreError) -> Result {
        let named = CustomerScope.name
        do {
            return try database.perform(durability: durability) { database in
                try database.actFor(customerNamed: named)
                return try body(&database)
            }
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
