import Clocks
import Dispatch
import Foundation
import MockStoreHTTP
import MockStoreSQLite
import Signing
import StoreKitCatalogue
import StoreWire
import Synchronization

/// The mock App Store: a thin composition of parts, each with one job and its own state (``StorePurchases``,
/// ``StoreSubscriptions``, ``StoreOffers``, ``StoreNotifications``, ...), over the catalogue, the transactions in
/// SQLite and the signer.
///
/// ``MockStoreRouter``'s route tables call the parts. Calls come concurrently, on the HTTP server's connection
/// threads: the database is used under one lock, and the writes of concurrent calls are committed together
/// (``GroupCommit``), each call returning only once what it did is durable. Everything else the parts hold is
/// immutable or behind its own lock.
public final class MockStore: StorePart {
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
        /// The virtual clock (the default) or Apple's sandbox clock (`--clock sandbox`).
        public var clockMode: StoreClockMode

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
            retryPolicy: NotificationRetryPolicy = NotificationRetryPolicy(), apiKeys: [String: P256PublicKey] = [:],
            clockMode: StoreClockMode = .virtual
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
            self.clockMode = clockMode
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

    public let configuration: Configuration
    /// The database, shared by concurrent calls through group commit.
    let database: GroupCommit<TransactionStore>
    /// The virtual clock and the subscription lifecycle over it.
    let subscriptionRuntime: SubscriptionRuntime

    /// The settings in force and simulated failures.
    public let settings: StoreSettings
    /// Signs transactions, app transactions and renewal info.
    public let signing: StoreSigning
    /// Notifications: made, delivered with their retries, and their history.
    public let notifications: StoreNotifications
    /// The products and the caches of their answers.
    public let catalogue: StoreCatalogue
    /// The billing settings (billing retry, grace period, products off sale).
    public let billingSettings: StoreBillingSettings
    /// Subscription offers and the keys promotional offers are checked with.
    public let offers: StoreOffers
    /// Auto-renewable subscriptions: the lifecycle's steps applied, recorded and announced.
    public let subscriptions: StoreSubscriptions
    /// Billing recovery, price increases and StoreKit's messages.
    public let billing: StoreBilling
    /// Subscriptions shared through Family Sharing.
    public let familySharing: StoreFamilySharing
    /// Renewal-date extensions, one and all.
    public let extensions: StoreExtensions
    /// Refunds, refund requests and reversals.
    public let refunds: StoreRefunds
    /// The device API's transactions.
    public let purchases: StorePurchases
    /// The App Store Server API.
    public let serverAPI: StoreServerAPI
    /// The test controls of transactions.
    public let controls: StoreControls
    /// The virtual clock's test controls.
    public let clockControls: StoreClockControls
    /// The store's customers.
    public let customers: StoreCustomers

    /// A store over `database`, which it owns from now on (and closes in ``close()``).
    public init(configuration: Configuration, database: sending TransactionStore) {
        // Every date the store reads comes from the virtual clock (real time until it is moved or sped up).
        let runtime = SubscriptionRuntime(
            catalogue: configuration.catalogue, base: configuration.clock, database: database,
            isProduction: configuration.isProduction, sandboxRate: configuration.clockMode.sandboxRate)
        var configuration = configuration
        configuration.clock = runtime.clock
        subscriptionRuntime = runtime
        self.configuration = configuration
        let productSettingsCache = ProductSettingsCache()
        database.settingsMayHaveChanged = { productSettingsCache.invalidate() }
        let notificationSigner = configuration.serverSigner ?? configuration.signer
        database.sealNotification = { try DeferredNotification.seal($0, signer: notificationSigner) }
        let appTransactions = Self.customerAppTransactions(database, now: configuration.clock.now())
        database.appTransactions = appTransactions
        let shared = GroupCommit(store: database)
        self.database = shared
        settings = StoreSettings(configuration: configuration, database: shared)
        signing = StoreSigning(configuration: configuration, customerAppTransactions: appTransactions)
        notifications = StoreNotifications(
            configuration: configuration, database: shared, signing: signing, due: runtime.wake)
        catalogue = StoreCatalogue(
            configuration: configuration, database: shared, settings: settings, productsBodies: ProductsBodyCache(),
            productSettingsCache: productSettingsCache)
        billingSettings = StoreBillingSettings(configuration: configuration, database: shared, runtime: runtime)
        offers = StoreOffers(
            configuration: configuration, database: shared, runtime: runtime, settings: settings,
            customerAppTransactions: appTransactions)
        subscriptions = StoreSubscriptions(
            configuration: configuration, database: shared, runtime: runtime, settings: settings,
            billingSettings: billingSettings, signing: signing, notifications: notifications, offers: offers)
        billing = StoreBilling(
            configuration: configuration, database: shared, runtime: runtime, subscriptions: subscriptions,
            billingSettings: billingSettings, signing: signing, notifications: notifications)
        familySharing = StoreFamilySharing(
            configuration: configuration, database: shared, runtime: runtime, subscriptions: subscriptions,
            settings: settings, signing: signing, notifications: notifications)
        extensions = StoreExtensions(
            configuration: configuration, database: shared, runtime: runtime, subscriptions: subscriptions,
            notifications: notifications)
        refunds = StoreRefunds(
            configuration: configuration, database: shared, subscriptions: subscriptions,
            familySharing: familySharing, signing: signing, notifications: notifications)
        purchases = StorePurchases(
            configuration: configuration, database: shared, catalogue: catalogue, settings: settings,
            subscriptions: subscriptions, signing: signing, notifications: notifications)
        serverAPI = StoreServerAPI(
            configuration: configuration, database: shared, signing: signing, notifications: notifications,
            refunds: refunds)
        controls = StoreControls(
            configuration: configuration, database: shared, catalogue: catalogue, subscriptions: subscriptions,
            billing: billing, signing: signing, notifications: notifications)
        clockControls = StoreClockControls(
            configuration: configuration, database: shared, runtime: runtime, subscriptions: subscriptions,
            billingSettings: billingSettings, extensions: extensions, notifications: notifications)
        customers = StoreCustomers(
            configuration: configuration, database: shared, customerAppTransactions: appTransactions)
    }

    /// Every customer's app transaction, the default customer's made on first start and kept (a database that cannot
    /// give it fails every later call anyway), so a transaction is signed with its own customer's whatever the call
    /// acts for.
    private static func customerAppTransactions(_ database: TransactionStore, now: Date) -> CustomerAppTransactions {
        let now = now.millisecondsSince1970
        let appTransaction =
            (try? database.appTransactionRecord(now: now))
            ?? TransactionStore.AppTransactionRecord(
                id: TransactionStore.newAppTransactionId(), originalPurchaseDate: now)
        let appTransactions = CustomerAppTransactions(defaultCustomer: appTransaction)
        for customer in (try? database.allCustomers()) ?? [] {
            appTransactions.learn(customer)
        }
        return appTransactions
    }

    /// The lifecycle over the catalogue, at the clock's rate now.
    public var subscriptionLifecycle: SubscriptionLifecycle { subscriptionRuntime.timedLifecycle }

    /// The virtual clock every date of the store comes from.
    public var virtualClock: VirtualClock { subscriptionRuntime.clock }

    /// Real time (bearer tokens are checked against it, not the virtual clock).
    public var realClock: any StoreClock { subscriptionRuntime.clock.base }

    /// The test root certificate (DER), if the store signs with a chain.
    public var rootCertificateDER: [UInt8]? { configuration.rootCertificateDER }

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
}
