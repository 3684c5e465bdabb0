import Foundation
import StoreTestControls
import StoreWire

/// The store's test controls (what `SKTestSession` does, and `mockstore control`), each one typed call.
extension TestStore {
    /// A purchase made outside the app (as a tester buying on the device): its state and signed transaction.
    /// `offer` redeems a subscription offer as `SKTestSession.buyProduct` does (no signature needed), as
    /// `mockstore control buy --offer TYPE:ID`.
    @discardableResult
    public func buy(
        _ productID: String, quantity: Int? = nil, appAccountToken: String? = nil, offer: TestOffer? = nil
    ) async throws -> TestTransactionBody {
        try await send(
            TestControls.buy,
            body: PurchaseRequestBody(
                productId: productID, quantity: quantity, appAccountToken: appAccountToken, offer: offer?.option))
    }

    /// Removes every transaction; the settings stay (`mockstore control clear`).
    public func clear() async throws {
        _ = try await exchange(TestControls.clear)
    }

    /// Removes one transaction (`mockstore control delete ID`).
    public func deleteTransaction(_ transactionID: String) async throws {
        _ = try await exchange(TestControls.deleteTransaction, .init(transactionId: transactionID))
    }

    /// A purchase as the app makes it on a device (`Product.purchase()`, through the device API): Ask to Buy and
    /// interrupted purchases apply, so the answer may be `pending` with the waiting transaction's id.
    public func purchaseOnDevice(_ productID: String, appAccountToken: String? = nil) async throws
        -> PurchaseResponseBody
    {
        try await send(
            DeviceAPI.purchase,
            body: PurchaseRequestBody(productId: productID, appAccountToken: appAccountToken))
    }

    /// Every transaction the store holds, oldest first.
    public func transactions() async throws -> [TestTransaction] {
        try await send(TestControls.transactions).transactions
    }

    /// Approves a purchase waiting for Ask to Buy.
    @discardableResult
    public func approve(_ transactionID: String) async throws -> TestTransactionBody {
        try await send(TestControls.approve, .init(transactionId: transactionID))
    }

    /// Declines a purchase waiting for Ask to Buy.
    @discardableResult
    public func decline(_ transactionID: String) async throws -> TestTransactionBody {
        try await send(TestControls.decline, .init(transactionId: transactionID))
    }

    /// Completes an interrupted purchase.
    @discardableResult
    public func resolve(_ transactionID: String) async throws -> TestTransactionBody {
        try await send(TestControls.resolve, .init(transactionId: transactionID))
    }

    /// Refunds a transaction: `reason` is Apple's `revocationReason`; `percentage` in milliunits (50000 is 50%)
    /// makes it a partial refund (`REFUND_PRORATED`).
    @discardableResult
    public func refund(_ transactionID: String, reason: RevocationReason? = nil, percentage: Int? = nil) async throws
        -> TestTransactionBody
    {
        try await send(
            TestControls.refund, .init(transactionId: transactionID),
            body: TestRefundBody(revocationReason: reason, revocationPercentage: percentage))
    }

    /// Reverses a refund.
    @discardableResult
    public func reverseRefund(_ transactionID: String) async throws -> TestTransactionBody {
        try await send(TestControls.reverseRefund, .init(transactionId: transactionID))
    }

    /// The customer asks for a refund (a `CONSUMPTION_REQUEST` follows).
    @discardableResult
    public func requestRefund(_ transactionID: String, reason: ConsumptionRequestReason? = nil) async throws
        -> TestTransactionBody
    {
        try await send(
            TestControls.requestRefund, .init(transactionId: transactionID),
            body: TestRefundRequestBody(consumptionRequestReason: reason))
    }

    /// The App Store declines the refund request (`REFUND_DECLINED`).
    @discardableResult
    public func declineRefund(_ transactionID: String) async throws -> TestTransactionBody {
        try await send(TestControls.declineRefund, .init(transactionId: transactionID))
    }

    /// Ask to Buy on or off for new purchases.
    @discardableResult
    public func setAskToBuy(_ enabled: Bool) async throws -> TestSettingsBody {
        try await send(TestControls.updateSettings, body: TestSettingsUpdate(askToBuyEnabled: enabled))
    }

    /// Interrupted purchases on or off.
    @discardableResult
    public func setInterruptedPurchases(_ enabled: Bool) async throws -> TestSettingsBody {
        try await send(TestControls.updateSettings, body: TestSettingsUpdate(interruptedPurchasesEnabled: enabled))
    }

    /// The storefront (ISO 3166-1 alpha-3: `GBR`, `USA`) new purchases are made in.
    @discardableResult
    public func setStorefront(_ storefront: String) async throws -> TestSettingsBody {
        try await send(TestControls.updateSettings, body: TestSettingsUpdate(storefront: storefront))
    }

    /// The locale (`en_GB`, `fr`) products' names and prices are shown in (`mockstore control locale ID`).
    @discardableResult
    public func setLocale(_ locale: String) async throws -> TestSettingsBody {
        try await send(TestControls.updateSettings, body: TestSettingsUpdate(locale: locale))
    }

    /// The failures in force, set here or by the catalogue (`mockstore control failures`).
    public func failures() async throws -> [TestFailure] {
        try await send(TestControls.failures).failures
    }

    /// The consumption information servers sent, oldest first (`mockstore control consumption`).
    public func consumption() async throws -> [TestConsumptionRecord] {
        try await send(TestControls.consumption).consumption
    }

    /// The settings in force (Ask to Buy, storefront, locale, failures).
    public func settings() async throws -> TestSettingsBody {
        try await send(TestControls.settings)
    }

    /// Makes a StoreKit API fail with `error` (as StoreKit names it: `StoreKitError.networkError`), every time or
    /// `once`.
    @discardableResult
    public func fail(_ api: StoreAPI, with error: StoreKitErrorName, once: Bool = false) async throws -> [TestFailure] {
        try await send(
            TestControls.setFailure, body: TestFailureRequest(api: api, error: error, once: once)
        ).failures
    }

    /// Clears the failure of `api`, or every failure; gives the failures still in force.
    @discardableResult
    public func clearFailures(_ api: StoreAPI? = nil) async throws -> [TestFailure] {
        if let api {
            return try await send(TestControls.clearFailure, .init(api: api)).failures
        } else {
            return try await send(TestControls.clearFailures).failures
        }
    }

    /// Moves the store's clock on (renewals, expiries, grace periods and retries due by then run, with their
    /// notifications); what ran is in the answer's `events`.
    @discardableResult
    public func advanceClock(by step: ClockStep) async throws -> TestClockBody {
        try await send(TestControls.advanceClock, body: TestClockRequest(duration: step.iso8601))
    }

    /// Sets Xcode's time rate (`.monthlyRenewalEveryThirtySeconds`, …): time then runs by itself at that rate.
    @discardableResult
    public func setTimeRate(_ rate: StoreTimeRate) async throws -> TestClockBody {
        try await send(TestControls.setClockRate, body: TestClockRequest(rate: rate.rawValue))
    }

    /// Sets the time rate by its `.storekit` `_timeRate` number (`15`), or a name the store may not know: what a
    /// test of the store's own refusal sends.
    @discardableResult
    public func setTimeRate(named rate: String) async throws -> TestClockBody {
        try await send(TestControls.setClockRate, body: TestClockRequest(rate: rate))
    }

    /// The store's clock: which one (`kind`: the virtual clock, or the sandbox clock of `mockstore --clock sandbox`),
    /// its now and its rate.
    public func clock() async throws -> TestClockBody {
        try await send(TestControls.clock)
    }

    /// Forgets every transaction and setting (`SKTestSession.resetToDefaultState`).
    public func reset() async throws {
        _ = try await exchange(TestControls.reset)
    }

    // MARK: Customers

    /// The customer every call inside ``acting(as:_:)`` acts for (`X-Mock-Customer`); nil: the default customer.
    @TaskLocal static var customer: String?

    /// Runs `body` as `customer` (added with ``addCustomer(_:storefront:)``): every call of this store in it, device
    /// API and controls, acts for them, each customer with their own purchases, subscriptions, eligibility, refunds
    /// and storefront. The Server API needs no customer: it answers for the customer of the transaction it is given.
    ///
    /// ```swift
    /// try await store.addCustomer("alice")
    /// let bought = try await store.acting(as: "alice") { try await store.buy("com.example.coins.100") }
    /// ```
    public func acting<Result>(as customer: String, _ body: () async throws -> Result) async rethrows -> Result {
        try await Self.$customer.withValue(customer) { try await body() }
    }

    /// Adds a customer with a name no other test has (`prefix` and random letters and digits), and gives the name:
    /// how tests that share one store each get a customer of their own.
    public func addNewCustomer(prefix: String = "customer") async throws -> String {
        let name = prefix + UUID().uuidString.prefix(18).replacingOccurrences(of: "-", with: "")
        try await addCustomer(name)
        return name
    }

    /// Adds a customer (a sandbox tester), in `storefront` (the catalogue's when nil).
    @discardableResult
    public func addCustomer(_ name: String, storefront: String? = nil) async throws -> TestCustomer {
        try await send(TestControls.addCustomer, body: TestCustomerRequest(name: name, storefront: storefront))
    }

    /// Every customer, the default one first.
    public func customers() async throws -> [TestCustomer] {
        try await send(TestControls.customers).customers
    }

    /// Removes a customer with everything that is theirs (never the default customer).
    public func removeCustomer(_ name: String) async throws {
        _ = try await exchange(TestControls.removeCustomer, .init(name: name))
    }

    /// The store's test root certificate (DER): what a server under test pins to verify what the store signs.
    public func rootCertificate() async throws -> Data {
        try await exchange(SandboxAPI.rootCertificate).0
    }
}

/// A StoreKit API a failure can be set on.
public typealias StoreAPI = StoreKitAPI

/// How far ``TestStore/advanceClock(by:)`` moves the clock: an ISO 8601 duration.
public struct ClockStep: Sendable, Equatable {
    /// The duration as ISO 8601 (`P1M`, `PT90M`).
    public let iso8601: String

    public init(iso8601: String) { self.iso8601 = iso8601 }

    public static func minutes(_ count: Int) -> ClockStep { ClockStep(iso8601: "PT\(count)M") }
    public static func hours(_ count: Int) -> ClockStep { ClockStep(iso8601: "PT\(count)H") }
    public static func days(_ count: Int) -> ClockStep { ClockStep(iso8601: "P\(count)D") }
    public static func months(_ count: Int) -> ClockStep { ClockStep(iso8601: "P\(count)M") }
    public static func years(_ count: Int) -> ClockStep { ClockStep(iso8601: "P\(count)Y") }
}
