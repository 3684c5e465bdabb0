/// The `settings` object of a `.storekit` file: what Xcode's StoreKit Testing starts a session with.
///
/// Every key is optional (`settings` may be `{}`). The mock store uses the storefront and locale now; the
/// others are kept for the test controls that mirror `SKTestSession`.
public struct StoreKitSettings: Equatable, Sendable {
    /// One entry of `_storeKitErrors`: a StoreKit API made to fail.
    public struct SimulatedError: Equatable, Sendable {
        /// The API, e.g. `Load Products`, `Purchase`, `Verification`.
        public var name: String
        public var enabled: Bool
        /// Which error (`current.index`), `nil` when none is chosen.
        public var errorIndex: Int?
        /// Its kind (`current.type`), e.g. `generic`.
        public var errorType: String?

        public init(name: String, enabled: Bool, errorIndex: Int? = nil, errorType: String? = nil) {
            self.name = name
            self.enabled = enabled
            self.errorIndex = errorIndex
            self.errorType = errorType
        }
    }

    /// `_storefront`: ISO 3166-1 alpha-3, e.g. `GBR`.
    public var storefront: String?
    /// `_locale`, e.g. `en_GB`.
    public var locale: String?
    public var askToBuyEnabled: Bool?
    public var failTransactionsEnabled: Bool?
    public var disableDialogs: Bool?
    public var billingGracePeriodEnabled: Bool?
    public var billingIssuesEnabled: Bool?
    public var renewalBillingIssuesEnabled: Bool?
    /// `_timeRate`: an index into Xcode's list of time rates.
    public var timeRate: Int?
    public var storeKitErrors: [SimulatedError]

    public init(
        storefront: String? = nil, locale: String? = nil, askToBuyEnabled: Bool? = nil,
        failTransactionsEnabled: Bool? = nil, disableDialogs: Bool? = nil, billingGracePeriodEnabled: Bool? = nil,
        billingIssuesEnabled: Bool? = nil, renewalBillingIssuesEnabled: Bool? = nil, timeRate: Int? = nil,
        storeKitErrors: [SimulatedError] = []
    ) {
        self.storefront = storefront
        self.locale = locale
        self.askToBuyEnabled = askToBuyEnabled
        self.failTransactionsEnabled = failTransactionsEnabled
        self.disableDialogs = disableDialogs
        self.billingGracePeriodEnabled = billingGracePeriodEnabled
        self.billingIssuesEnabled = billingIssuesEnabled
        self.renewalBillingIssuesEnabled = renewalBillingIssuesEnabled
        self.timeRate = timeRate
        self.storeKitErrors = storeKitErrors
    }
}
