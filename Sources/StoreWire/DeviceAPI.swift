/// The device API: what StoreKit does on a phone, under `/storekit/v1/`. Each request acts for the customer its
/// ``MockCustomerHeader`` names (the default customer without one).
public enum DeviceAPI {
    /// `Product.products(for:)`: the products with the ids of the `ids` query (`ids=A,B`).
    public static let products = Endpoint<NoBody, StoreProductsBody, ProductsParameters>(
        .get, "/storekit/v1/products", errors: [StoreErrorCode.simulatedStoreKitError])
    /// `Product.purchase()`.
    public static let purchase = Endpoint<PurchaseRequestBody, PurchaseResponseBody, NoParameters>(
        .post, "/storekit/v1/purchases",
        errors: [
            StoreErrorCode.invalidProductId, StoreErrorCode.invalidAppAccountToken, StoreErrorCode.conflict,
            StoreErrorCode.simulatedStoreKitError,
        ])
    /// Where a purchase waiting for Ask to Buy or an interruption stands: `{transactionId}` is the waiting transaction's.
    public static let purchaseStatus = Endpoint<NoBody, PurchaseStatusBody, TransactionPath>(
        .get, "/storekit/v1/purchases/{transactionId}",
        errors: [StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound])
    /// `Transaction.unfinished`.
    public static let unfinished = Endpoint<NoBody, SignedTransactionsBody, NoParameters>(
        .get, "/storekit/v1/transactions/unfinished", errors: [StoreErrorCode.simulatedStoreKitError])
    /// `Transaction.updates`: a page of changes after the `after` query's cursor.
    public static let updates = Endpoint<NoBody, TransactionUpdatesBody, UpdatesParameters>(
        .get, "/storekit/v1/transactions/updates", errors: [StoreErrorCode.simulatedStoreKitError])
    /// `Transaction.all`: every paid transaction of the customer, oldest first, each in its latest state (refunded
    /// ones with their revocation), finished consumables among them (as with Info.plist's
    /// `SKIncludeConsumableInAppPurchaseHistory`).
    public static let all = Endpoint<NoBody, SignedTransactionsBody, AllTransactionsParameters>(
        .get, "/storekit/v1/transactions/all", errors: [StoreErrorCode.simulatedStoreKitError])
    /// `Transaction.currentEntitlements`.
    public static let currentEntitlements = Endpoint<NoBody, SignedTransactionsBody, NoParameters>(
        .get, "/storekit/v1/transactions/current-entitlements", errors: [StoreErrorCode.simulatedStoreKitError])
    /// `Transaction.finish()`.
    public static let finish = Endpoint<EmptyBody, EmptyBody, TransactionPath>(
        .post, "/storekit/v1/transactions/{transactionId}/finish",
        errors: [
            StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound,
            StoreErrorCode.simulatedStoreKitError,
        ])
    /// `AppTransaction.shared`.
    public static let appTransaction = Endpoint<NoBody, SignedAppTransactionBody, NoParameters>(
        .get, "/storekit/v1/app-transaction",
        errors: [StoreErrorCode.appTransactionDoesNotExist, StoreErrorCode.simulatedStoreKitError])
    /// `Storefront.current` and `Storefront.updates`: the storefront the customer is in now (a mock store addition:
    /// StoreKit reads it from the device's App Store account).
    public static let storefront = Endpoint<NoBody, StorefrontBody, NoParameters>(
        .get, "/storekit/v1/storefront", errors: [StoreErrorCode.simulatedStoreKitError])
    /// `Product.SubscriptionInfo.status(for:)`: the statuses in subscription group `{groupId}`.
    public static let subscriptionStatus = Endpoint<NoBody, SubscriptionStatusesBody, SubscriptionGroupPath>(
        .get, "/storekit/v1/subscriptions/{groupId}/status", errors: [StoreErrorCode.simulatedStoreKitError])
    /// `isEligibleForIntroOffer(for:)`, for subscription group `{groupId}`.
    public static let introOfferEligibility = Endpoint<NoBody, IntroOfferEligibilityBody, SubscriptionGroupPath>(
        .get, "/storekit/v1/subscriptions/{groupId}/intro-offer-eligibility",
        errors: [StoreErrorCode.simulatedStoreKitError])
    /// `Message.messages`: the messages StoreKit would show (Billing Problem, price increase consent).
    public static let messages = Endpoint<NoBody, StoreMessagesBody, NoParameters>(.get, "/storekit/v1/messages")
}
