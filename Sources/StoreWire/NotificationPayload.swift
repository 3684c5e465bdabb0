/// What an App Store Server Notification V2 carries, with Apple's field names (`ResponseBodyV2DecodedPayload`).
///
/// The store POSTs `{"signedPayload": JWS}` (``SignedNotificationBody``); the JWS payload is this.
public struct NotificationPayload: Codable, Sendable, Equatable {
    public var notificationType: NotificationType
    /// Left out when the type has none.
    public var subtype: NotificationSubtype?
    public var notificationUUID: String
    public var data: NotificationData?
    /// RENEWAL_EXTENSION SUMMARY only (then there is no `data`).
    public var summary: RenewalExtensionSummary?
    /// `2.0`.
    public var version: String
    /// Milliseconds since 1970.
    public var signedDate: Int64

    public init(
        notificationType: NotificationType, subtype: NotificationSubtype? = nil, notificationUUID: String,
        data: NotificationData?,
        version: String = "2.0", signedDate: Int64
    ) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.data = data
        self.version = version
        self.signedDate = signedDate
    }
}

/// The `data` of a notification: the app, the environment and, except for `TEST`, the signed transaction.
public struct NotificationData: Codable, Sendable, Equatable {
    public var environment: AppStoreEnvironment
    /// Production only: Apple leaves it out in the sandbox.
    public var appAppleId: Int64?
    public var bundleId: String
    public var bundleVersion: String?
    public var signedTransactionInfo: String?
    /// `CONSUMPTION_REQUEST` only.
    public var consumptionRequestReason: ConsumptionRequestReason?
    /// Subscription notifications: the renewal info, signed.
    public var signedRenewalInfo: String?
    /// Subscription notifications.
    public var status: SubscriptionStatus?

    public init(
        environment: AppStoreEnvironment, appAppleId: Int64?, bundleId: String, bundleVersion: String? = nil,
        signedTransactionInfo: String? = nil, consumptionRequestReason: ConsumptionRequestReason? = nil
    ) {
        self.environment = environment
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.bundleVersion = bundleVersion
        self.signedTransactionInfo = signedTransactionInfo
        self.consumptionRequestReason = consumptionRequestReason
    }
}

/// The body of a notification POST: `{"signedPayload": JWS}`.
public struct SignedNotificationBody: Codable, Sendable, Equatable {
    public var signedPayload: String
    public init(signedPayload: String) { self.signedPayload = signedPayload }
}
