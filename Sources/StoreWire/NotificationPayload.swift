/// What an App Store Server Notification V2 carries, with Apple's field names (`ResponseBodyV2DecodedPayload`).
///
/// The store POSTs `{"signedPayload": JWS}` (``SignedNotificationBody``); the JWS payload is this.
public struct NotificationPayload: Codable, Sendable, Equatable {
    /// `ONE_TIME_CHARGE`, `TEST`, `REFUND`, `REFUND_DECLINED`, `REFUND_REVERSED`, `CONSUMPTION_REQUEST`, …
    public var notificationType: String
    /// Left out when the type has none (none of the types above has one).
    public var subtype: String?
    public var notificationUUID: String
    public var data: NotificationData?
    /// RENEWAL_EXTENSION SUMMARY only (then there is no `data`).
    public var summary: RenewalExtensionSummary?
    /// `2.0`.
    public var version: String
    /// Milliseconds since 1970.
    public var signedDate: Int64

    public init(
        notificationType: String, subtype: String? = nil, notificationUUID: String, data: NotificationData?,
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
    /// `Sandbox` or `Production`.
    public var environment: String
    /// Production only: Apple leaves it out in the sandbox.
    public var appAppleId: Int64?
    public var bundleId: String
    public var bundleVersion: String?
    public var signedTransactionInfo: String?
    /// `CONSUMPTION_REQUEST` only: `UNINTENDED_PURCHASE`, `FULFILLMENT_ISSUE`, `UNSATISFIED_WITH_PURCHASE`,
    /// `LEGAL` or `OTHER`.
    public var consumptionRequestReason: String?
    /// Subscription notifications: the renewal info, signed.
    public var signedRenewalInfo: String?
    /// Subscription notifications: 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
    public var status: Int?

    public init(
        environment: String, appAppleId: Int64?, bundleId: String, bundleVersion: String? = nil,
        signedTransactionInfo: String? = nil, consumptionRequestReason: String? = nil
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
