/// The App Store Server API subset, at Apple's paths. Every request carries a bearer token (an ES256 JWT signed with
/// an App Store Connect API key); one that fails gets a 401 without a body, as Apple answers.
public enum ServerAPI {
    /// Get Transaction Info.
    public static let transactionInfo = Endpoint<NoBody, TransactionInfoResponseBody, TransactionPath>(
        .get, "/inApps/v1/transactions/{transactionId}",
        errors: [StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound])
    /// Get App Transaction Info.
    public static let appTransactionInfo = Endpoint<NoBody, AppTransactionInfoResponseBody, TransactionPath>(
        .get, "/inApps/v1/transactions/appTransactions/{transactionId}",
        errors: [
            StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound,
            StoreErrorCode.appTransactionDoesNotExist,
        ])
    /// Set App Account Token (200 without a body).
    public static let setAppAccountToken = Endpoint<UpdateAppAccountTokenRequestBody, NoBody, OriginalTransactionPath>(
        .put, "/inApps/v1/transactions/{originalTransactionId}/appAccountToken",
        errors: [
            StoreErrorCode.invalidTransactionId, StoreErrorCode.originalTransactionIdNotFound,
            StoreErrorCode.appTransactionIdNotSupported, StoreErrorCode.invalidAppAccountToken,
            StoreErrorCode.familyTransactionNotSupported, StoreErrorCode.transactionIdIsNotOriginalTransactionId,
        ])
    /// Get Notification History (the `paginationToken` query for the next page).
    public static let notificationHistory = Endpoint<
        NotificationHistoryRequestBody, NotificationHistoryResponseBody, NotificationHistoryParameters
    >(
        .post, "/inApps/v1/notifications/history",
        errors: [
            StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound,
            StoreErrorCode.startDateTooFarInPast, StoreErrorCode.startDateAfterEndDate,
            StoreErrorCode.invalidPaginationToken, StoreErrorCode.invalidStartDate, StoreErrorCode.invalidEndDate,
            StoreErrorCode.invalidNotificationType, StoreErrorCode.multipleFiltersSupplied,
        ])
    /// The errors of Get Transaction History, the same in v1 and v2 (the same query).
    private static let historyErrors: Set<StoreErrorCode> = [
        StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound,
        StoreErrorCode.invalidRequestRevision, StoreErrorCode.invalidStartDate, StoreErrorCode.invalidEndDate,
        StoreErrorCode.invalidSort, StoreErrorCode.invalidProductType, StoreErrorCode.invalidProductId,
        StoreErrorCode.invalidInAppOwnershipType, StoreErrorCode.invalidRevoked,
    ]
    /// Get Transaction History v1 (deprecated by Apple; the query as v2's).
    public static let historyV1 = Endpoint<NoBody, HistoryResponseBody, TransactionHistoryParameters>(
        .get, "/inApps/v1/history/{transactionId}",
        errors: historyErrors)
    /// Get Transaction History (v2): `revision`, `sort` and the filters as query items.
    public static let history = Endpoint<NoBody, HistoryResponseBody, TransactionHistoryParameters>(
        .get, "/inApps/v2/history/{transactionId}",
        errors: historyErrors)
    /// Get Refund History (the `revision` query for the next page).
    public static let refundHistory = Endpoint<NoBody, RefundHistoryResponseBody, RefundHistoryParameters>(
        .get, "/inApps/v2/refund/lookup/{transactionId}",
        errors: [
            StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound,
            StoreErrorCode.invalidRequestRevision,
        ])
    /// Look Up Order ID.
    public static let lookUpOrder = Endpoint<NoBody, OrderLookupResponseBody, OrderPath>(
        .get, "/inApps/v1/lookup/{orderId}")
    /// Send Consumption Information v1 (202 without a body; the body is checked field by field).
    public static let sendConsumptionV1 = Endpoint<JSONValue, NoBody, TransactionPath>(
        .put, "/inApps/v1/transactions/consumption/{transactionId}",
        errors: [
            StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound,
            StoreErrorCode.invalidAccountTenure, StoreErrorCode.invalidConsumptionAppAccountToken,
            StoreErrorCode.invalidConsumptionStatus, StoreErrorCode.invalidCustomerConsented,
            StoreErrorCode.invalidDeliveryStatus, StoreErrorCode.invalidLifetimeDollarsPurchased,
            StoreErrorCode.invalidLifetimeDollarsRefunded, StoreErrorCode.invalidPlatform,
            StoreErrorCode.invalidPlayTime, StoreErrorCode.invalidSampleContentProvided,
            StoreErrorCode.invalidUserStatus, StoreErrorCode.invalidTransactionNotConsumable,
        ])
    /// Send Consumption Information (v2) (202 without a body; the body is checked field by field).
    public static let sendConsumption = Endpoint<JSONValue, NoBody, TransactionPath>(
        .put, "/inApps/v2/transactions/consumption/{transactionId}",
        errors: [
            StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound,
            StoreErrorCode.invalidAccountTenure, StoreErrorCode.invalidConsumptionAppAccountToken,
            StoreErrorCode.invalidConsumptionStatus, StoreErrorCode.invalidCustomerConsented,
            StoreErrorCode.invalidDeliveryStatus, StoreErrorCode.invalidLifetimeDollarsPurchased,
            StoreErrorCode.invalidLifetimeDollarsRefunded, StoreErrorCode.invalidPlatform,
            StoreErrorCode.invalidPlayTime, StoreErrorCode.invalidSampleContentProvided,
            StoreErrorCode.invalidUserStatus, StoreErrorCode.invalidTransactionNotConsumable,
        ])
    /// Finish a transaction from the server (200 without a body).
    public static let finishTransaction = Endpoint<NoBody, NoBody, TransactionPath>(
        .post, "/inApps/v1/transactions/{transactionId}/finish",
        errors: [
            StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound,
            StoreErrorCode.simulatedStoreKitError,
        ])
    /// Request a Test Notification.
    public static let requestTestNotification = Endpoint<NoBody, SendTestNotificationResponseBody, NoParameters>(
        .post, "/inApps/v1/notifications/test", errors: [StoreErrorCode.serverNotificationURLNotFound])
    /// Get Test Notification Status.
    public static let testNotificationStatus = Endpoint<
        NoBody, CheckTestNotificationResponseBody, TestNotificationPath
    >(
        .get, "/inApps/v1/notifications/test/{token}", errors: [StoreErrorCode.testNotificationNotFound])
    /// Get All Subscription Statuses (the `status` query filters).
    public static let subscriptionStatuses = Endpoint<NoBody, StatusResponseBody, SubscriptionStatusesParameters>(
        .get, "/inApps/v1/subscriptions/{transactionId}",
        errors: [
            StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound, StoreErrorCode.invalidStatus,
        ])
    /// Extend a Subscription Renewal Date (the body checked field by field).
    public static let extendRenewalDate = Endpoint<
        ExtendRenewalDateRequestBody, ExtendRenewalDateResponseBody, OriginalTransactionPath
    >(
        .put, "/inApps/v1/subscriptions/extend/{originalTransactionId}",
        errors: [
            StoreErrorCode.invalidOriginalTransactionId, StoreErrorCode.invalidExtendByDays,
            StoreErrorCode.invalidExtendReasonCode, StoreErrorCode.invalidRequestIdentifier,
            StoreErrorCode.subscriptionExtensionIneligible, StoreErrorCode.subscriptionMaxExtension,
            StoreErrorCode.familySharedSubscriptionExtensionIneligible, StoreErrorCode.originalTransactionIdNotFound,
        ])
    /// Extend Subscription Renewal Dates for All Active Subscribers (the body checked field by field).
    public static let massExtendRenewalDate = Endpoint<
        MassExtendRenewalDateRequestBody, MassExtendRenewalDateResponseBody, NoParameters
    >(
        .post, "/inApps/v1/subscriptions/extend/mass",
        errors: [
            StoreErrorCode.invalidProductId, StoreErrorCode.invalidExtendByDays, StoreErrorCode.invalidExtendReasonCode,
            StoreErrorCode.invalidRequestIdentifier, StoreErrorCode.invalidEmptyStorefrontCountryCodeList,
            StoreErrorCode.invalidStorefrontCountryCode,
        ])
    /// Get Status of Subscription Renewal Date Extensions.
    public static let massExtensionStatus = Endpoint<
        NoBody, MassExtendRenewalDateStatusResponseBody, MassExtensionPath
    >(
        .get, "/inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}",
        errors: [
            StoreErrorCode.invalidProductId, StoreErrorCode.invalidRequestIdentifier,
            StoreErrorCode.statusRequestNotFound,
        ])
}
