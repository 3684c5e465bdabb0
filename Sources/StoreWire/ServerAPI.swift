/// The App Store Server API subset, at Apple's paths. Every request carries a bearer token (an ES256 JWT signed with
/// an App Store Connect API key); one that fails gets a 401 without a body, as Apple answers.
public enum ServerAPI {
    /// Get Transaction Info.
    public static let transactionInfo = Endpoint<NoBody, TransactionInfoResponseBody>(
        .get, "/inApps/v1/transactions/{transactionId}")
    /// Get App Transaction Info.
    public static let appTransactionInfo = Endpoint<NoBody, AppTransactionInfoResponseBody>(
        .get, "/inApps/v1/transactions/appTransactions/{transactionId}")
    /// Set App Account Token (200 without a body).
    public static let setAppAccountToken = Endpoint<UpdateAppAccountTokenRequestBody, NoBody>(
        .put, "/inApps/v1/transactions/{originalTransactionId}/appAccountToken")
    /// Get Notification History (the `paginationToken` query for the next page).
    public static let notificationHistory = Endpoint<NotificationHistoryRequestBody, NotificationHistoryResponseBody>(
        .post, "/inApps/v1/notifications/history")
    /// Get Transaction History v1 (deprecated by Apple; the query as v2's).
    public static let historyV1 = Endpoint<NoBody, HistoryResponseBody>(.get, "/inApps/v1/history/{transactionId}")
    /// Get Transaction History (v2): `revision`, `sort` and the filters as query items.
    public static let history = Endpoint<NoBody, HistoryResponseBody>(.get, "/inApps/v2/history/{transactionId}")
    /// Get Refund History (the `revision` query for the next page).
    public static let refundHistory = Endpoint<NoBody, RefundHistoryResponseBody>(
        .get, "/inApps/v2/refund/lookup/{transactionId}")
    /// Look Up Order ID.
    public static let lookUpOrder = Endpoint<NoBody, OrderLookupResponseBody>(.get, "/inApps/v1/lookup/{orderId}")
    /// Send Consumption Information v1 (202 without a body; the body is checked field by field).
    public static let sendConsumptionV1 = Endpoint<JSONValue, NoBody>(
        .put, "/inApps/v1/transactions/consumption/{transactionId}")
    /// Send Consumption Information (v2) (202 without a body; the body is checked field by field).
    public static let sendConsumption = Endpoint<JSONValue, NoBody>(
        .put, "/inApps/v2/transactions/consumption/{transactionId}")
    /// Finish a transaction from the server (200 without a body).
    public static let finishTransaction = Endpoint<NoBody, NoBody>(
        .post, "/inApps/v1/transactions/{transactionId}/finish")
    /// Request a Test Notification.
    public static let requestTestNotification = Endpoint<NoBody, SendTestNotificationResponseBody>(
        .post, "/inApps/v1/notifications/test")
    /// Get Test Notification Status.
    public static let testNotificationStatus = Endpoint<NoBody, CheckTestNotificationResponseBody>(
        .get, "/inApps/v1/notifications/test/{token}")
    /// Get All Subscription Statuses (the `status` query filters).
    public static let subscriptionStatuses = Endpoint<NoBody, StatusResponseBody>(
        .get, "/inApps/v1/subscriptions/{transactionId}")
    /// Extend a Subscription Renewal Date (the body checked field by field).
    public static let extendRenewalDate = Endpoint<ExtendRenewalDateRequestBody, ExtendRenewalDateResponseBody>(
        .put, "/inApps/v1/subscriptions/extend/{originalTransactionId}")
    /// Extend Subscription Renewal Dates for All Active Subscribers (the body checked field by field).
    public static let massExtendRenewalDate = Endpoint<
        MassExtendRenewalDateRequestBody, MassExtendRenewalDateResponseBody
    >(.post, "/inApps/v1/subscriptions/extend/mass")
    /// Get Status of Subscription Renewal Date Extensions.
    public static let massExtensionStatus = Endpoint<NoBody, MassExtendRenewalDateStatusResponseBody>(
        .get, "/inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}")
}
