import Foundation
import StoreWire

/// The store's test controls (what `SKTestSession` does, and `mockstore control`), each one typed call.
extension TestStore {
    private static func transaction(_ id: String) -> String {
        "/test/v1/transactions/" + (id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id)
    }

    /// A purchase made outside the app (as a tester buying on the device): its state and signed transaction.
    @discardableResult
    public func buy(_ productID: String, quantity: Int? = nil, appAccountToken: String? = nil) async throws
        -> TestTransactionBody
    {
        try await send(
            "POST", "/test/v1/purchases",
            body: PurchaseRequestBody(productId: productID, quantity: quantity, appAccountToken: appAccountToken))
    }

    /// A purchase as the app makes it on a device (`Product.purchase()`, through the device API): Ask to Buy and
    /// interrupted purchases apply, so the answer may be `pending` with the waiting transaction's id.
    public func purchaseOnDevice(_ productID: String, appAccountToken: String? = nil) async throws
        -> PurchaseResponseBody
    {
        try await send(
            "POST", "/storekit/v1/purchases",
            body: PurchaseRequestBody(productId: productID, appAccountToken: appAccountToken))
    }

    /// Every transaction the store holds, oldest first.
    public func transactions() async throws -> [TestTransaction] {
        try await send("GET", "/test/v1/transactions", as: TestTransactionsBody.self).transactions
    }

    /// Approves a purchase waiting for Ask to Buy.
    @discardableResult
    public func approve(_ transactionID: String) async throws -> TestTransactionBody {
        try await send("POST", Self.transaction(transactionID) + "/approve")
    }

    /// Declines a purchase waiting for Ask to Buy.
    @discardableResult
    public func decline(_ transactionID: String) async throws -> TestTransactionBody {
        try await send("POST", Self.transaction(transactionID) + "/decline")
    }

    /// Completes an interrupted purchase.
    @discardableResult
    public func resolve(_ transactionID: String) async throws -> TestTransactionBody {
        try await send("POST", Self.transaction(transactionID) + "/resolve")
    }

    /// Refunds a transaction: `reason` is Apple's `revocationReason`; `percentage` in milliunits (50000 is 50%)
    /// makes it a partial refund (`REFUND_PRORATED`).
    @discardableResult
    public func refund(_ transactionID: String, reason: RevocationReason? = nil, percentage: Int? = nil) async throws
        -> TestTransactionBody
    {
        try await send(
            "POST", Self.transaction(transactionID) + "/refund",
            body: TestRefundBody(revocationReason: reason, revocationPercentage: percentage))
    }

    /// Reverses a refund.
    @discardableResult
    public func reverseRefund(_ transactionID: String) async throws -> TestTransactionBody {
        try await send("POST", Self.transaction(transactionID) + "/refund/reverse")
    }

    /// The customer asks for a refund (a `CONSUMPTION_REQUEST` follows).
    @discardableResult
    public func requestRefund(_ transactionID: String, reason: ConsumptionRequestReason? = nil) async throws
        -> TestTransactionBody
    {
        try await send(
            "POST", Self.transaction(transactionID) + "/refund-request",
            body: TestRefundRequestBody(consumptionRequestReason: reason))
    }

    /// The App Store declines the refund request (`REFUND_DECLINED`).
    @discardableResult
    public func declineRefund(_ transactionID: String) async throws -> TestTransactionBody {
        try await send("POST", Self.transaction(transactionID) + "/refund-request/decline")
    }

    /// Ask to Buy on or off for new purchases.
    public func setAskToBuy(_ enabled: Bool) async throws {
        _ = try await send(
            "POST", "/test/v1/settings", body: TestSettingsUpdate(askToBuyEnabled: enabled), as: TestSettingsBody.self)
    }

    /// Interrupted purchases on or off.
    public func setInterruptedPurchases(_ enabled: Bool) async throws {
        _ = try await send(
            "POST", "/test/v1/settings", body: TestSettingsUpdate(interruptedPurchasesEnabled: enabled),
            as: TestSettingsBody.self)
    }

    /// The storefront (ISO 3166-1 alpha-3: `GBR`, `USA`) new purchases are made in.
    public func setStorefront(_ storefront: String) async throws {
        _ = try await send(
            "POST", "/test/v1/settings", body: TestSettingsUpdate(storefront: storefront), as: TestSettingsBody.self)
    }

    /// The settings in force (Ask to Buy, storefront, locale, failures).
    public func settings() async throws -> TestSettingsBody {
        try await send("GET", "/test/v1/settings")
    }

    /// Makes a StoreKit API fail with `error` (as StoreKit names it: `StoreKitError.networkError`), every time or
    /// `once`.
    public func fail(_ api: StoreAPI, with error: String, once: Bool = false) async throws {
        _ = try await send(
            "POST", "/test/v1/failures", body: TestFailureRequest(api: api.rawValue, error: error, once: once),
            as: TestFailuresBody.self)
    }

    /// Clears the failure of `api`, or every failure.
    public func clearFailures(_ api: StoreAPI? = nil) async throws {
        _ = try await exchange("DELETE", "/test/v1/failures" + (api.map { "/" + $0.rawValue } ?? ""))
    }

    /// Moves the store's clock on (renewals, expiries, grace periods and retries due by then run, with their
    /// notifications); what ran is in the answer's `events`.
    @discardableResult
    public func advanceClock(by step: ClockStep) async throws -> TestClockBody {
        try await send("POST", "/test/v1/clock/advance", body: TestClockRequest(duration: step.iso8601))
    }

    /// Sets Xcode's time rate (`monthlyRenewalEveryThirtySeconds`, …): time then runs by itself at that rate.
    @discardableResult
    public func setTimeRate(_ rate: String) async throws -> TestClockBody {
        try await send("POST", "/test/v1/clock/rate", body: TestClockRequest(rate: rate))
    }

    /// The store's clock.
    public func clock() async throws -> TestClockBody {
        try await send("GET", "/test/v1/clock")
    }

    /// Forgets every transaction and setting (`SKTestSession.resetToDefaultState`).
    public func reset() async throws {
        _ = try await exchange("POST", "/test/v1/reset")
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

    /// Adds a customer (a sandbox tester), in `storefront` (the catalogue's when nil).
    @discardableResult
    public func addCustomer(_ name: String, storefront: String? = nil) async throws -> TestCustomer {
        try await send("POST", "/test/v1/customers", body: TestCustomerRequest(name: name, storefront: storefront))
    }

    /// Every customer, the default one first.
    public func customers() async throws -> [TestCustomer] {
        try await send("GET", "/test/v1/customers", as: TestCustomersBody.self).customers
    }

    /// Removes a customer with everything that is theirs (never the default customer).
    public func removeCustomer(_ name: String) async throws {
        _ = try await exchange(
            "DELETE",
            "/test/v1/customers/" + (name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name))
    }

    /// The store's test root certificate (DER): what a server under test pins to verify what the store signs.
    public func rootCertificate() async throws -> Data {
        try await exchange("GET", "/test/v1/root-certificate").0
    }
}

/// A StoreKit API a failure can be set on.
public enum StoreAPI: String, Sendable, CaseIterable {
    case loadProducts, purchase, verification, appStoreSync, finish
}

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
