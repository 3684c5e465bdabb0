import StoreWire

/// Bodies of the mock store's test controls under `/test/v1/` (what `SKTestSession` does in Xcode).

/// A transaction as the test controls show it: everything the store knows, signed or not.
public struct TestTransaction: Codable, Sendable, Equatable {
    public var transactionId: String
    public var originalTransactionId: String
    /// The order the purchase belongs to (`MOCK` + digits), for Look Up Order ID.
    public var orderId: String
    public var productId: String
    /// The transaction's `type`.
    public var type: ProductType
    public var quantity: Int
    public var price: Int64
    public var currency: String
    public var storefront: String
    public var purchaseDate: Int64
    public var appAccountToken: String?
    /// `app` (a purchase call) or `outside` (bought outside the app, `buyProduct`).
    public var origin: TransactionOrigin
    /// `purchased`, `pending` or `declined`.
    public var status: TransactionStatus
    /// With `pending`: `askToBuy` or `interrupted`.
    public var pendingReason: PendingReason?
    public var finished: Bool
    public var finishedDate: Int64?
    public var revocationDate: Int64?
    public var revocationReason: RevocationReason?
    public var revocationType: RevocationType?
    /// With a refund: the share refunded, in milliunits (100000 for a full refund).
    public var revocationPercentage: Int?
    /// `requested` while a refund request waits, then `declined` or `granted`.
    public var refundRequest: RefundRequestState?
    /// How many times the transaction changed (1 when created).
    public var version: Int64

    public init(
        transactionId: String, originalTransactionId: String, orderId: String, productId: String, type: ProductType,
        quantity: Int, price: Int64, currency: String, storefront: String, purchaseDate: Int64,
        appAccountToken: String?, origin: TransactionOrigin, status: TransactionStatus, pendingReason: PendingReason?,
        finished: Bool,
        finishedDate: Int64?, revocationDate: Int64?, revocationReason: RevocationReason?,
        revocationType: RevocationType?,
        refundRequest: RefundRequestState?, version: Int64
    ) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.orderId = orderId
        self.productId = productId
        self.type = type
        self.quantity = quantity
        self.price = price
        self.currency = currency
        self.storefront = storefront
        self.purchaseDate = purchaseDate
        self.appAccountToken = appAccountToken
        self.origin = origin
        self.status = status
        self.pendingReason = pendingReason
        self.finished = finished
        self.finishedDate = finishedDate
        self.revocationDate = revocationDate
        self.revocationReason = revocationReason
        self.revocationType = revocationType
        self.refundRequest = refundRequest
        self.version = version
    }
}

/// `GET /test/v1/transactions`: every transaction, oldest first.
public struct TestTransactionsBody: Codable, Sendable, Equatable {
    public var transactions: [TestTransaction]
    public init(transactions: [TestTransaction]) { self.transactions = transactions }
}

/// The answer of a control that made or changed one transaction: its state, and its JWS when it is paid.
public struct TestTransactionBody: Codable, Sendable, Equatable {
    public var transaction: TestTransaction
    public var signedTransaction: String?
    public init(transaction: TestTransaction, signedTransaction: String? = nil) {
        self.transaction = transaction
        self.signedTransaction = signedTransaction
    }
}

/// A StoreKit API made to fail, and with which error.
public struct TestFailure: Codable, Sendable, Equatable {
    /// `loadProducts`, `purchase`, `verification`, `appStoreSync` or `finish`.
    public var api: StoreKitAPI
    /// The error as StoreKit names it, e.g. `Product.PurchaseError.purchaseNotAllowed`, `StoreKitError.networkError`,
    /// `SKError.Code.paymentNotAllowed`, `VerificationError.invalidSignature`.
    public var error: StoreKitErrorName
    /// Only the next call fails; after it the API works again.
    public var once: Bool
    /// `control` (set at run time) or `catalogue` (the `.storekit` file's `_storeKitErrors` or
    /// `_failTransactionsEnabled`).
    public var source: FailureSource

    public init(api: StoreKitAPI, error: StoreKitErrorName, once: Bool, source: FailureSource) {
        self.api = api
        self.error = error
        self.once = once
        self.source = source
    }
}

/// `POST /test/v1/failures`.
public struct TestFailureRequest: Codable, Sendable, Equatable {
    public var api: StoreKitAPI
    public var error: StoreKitErrorName
    public var once: Bool?
    public init(api: StoreKitAPI, error: StoreKitErrorName, once: Bool? = nil) {
        self.api = api
        self.error = error
        self.once = once
    }
}

/// `GET /test/v1/failures`.
public struct TestFailuresBody: Codable, Sendable, Equatable {
    public var failures: [TestFailure]
    public init(failures: [TestFailure]) { self.failures = failures }
}

/// `GET /test/v1/settings` (and the answer of `POST`): what the store runs with now.
public struct TestSettingsBody: Codable, Sendable, Equatable {
    public var askToBuyEnabled: Bool
    public var interruptedPurchasesEnabled: Bool
    /// ISO 3166-1 alpha-3, e.g. `GBR`.
    public var storefront: String
    public var currency: String
    public var locale: String
    public var failures: [TestFailure]

    public init(
        askToBuyEnabled: Bool, interruptedPurchasesEnabled: Bool, storefront: String, currency: String,
        locale: String, failures: [TestFailure]
    ) {
        self.askToBuyEnabled = askToBuyEnabled
        self.interruptedPurchasesEnabled = interruptedPurchasesEnabled
        self.storefront = storefront
        self.currency = currency
        self.locale = locale
        self.failures = failures
    }
}

/// `POST /test/v1/settings`: the settings to change; the others stay.
public struct TestSettingsUpdate: Codable, Sendable, Equatable {
    public var askToBuyEnabled: Bool?
    public var interruptedPurchasesEnabled: Bool?
    public var storefront: String?
    public var locale: String?

    public init(
        askToBuyEnabled: Bool? = nil, interruptedPurchasesEnabled: Bool? = nil, storefront: String? = nil,
        locale: String? = nil
    ) {
        self.askToBuyEnabled = askToBuyEnabled
        self.interruptedPurchasesEnabled = interruptedPurchasesEnabled
        self.storefront = storefront
        self.locale = locale
    }
}

/// `POST /test/v1/transactions/{id}/refund` (optional body): `revocationReason` 0 (other reason, the default) or 1
/// (an issue in the app); `revocationPercentage` in milliunits (1 to 100000; 50000 is 50%) for a prorated refund,
/// none for a full one.
public struct TestRefundBody: Codable, Sendable, Equatable {
    public var revocationReason: RevocationReason?
    public var revocationPercentage: Int?
    public init(revocationReason: RevocationReason? = nil, revocationPercentage: Int? = nil) {
        self.revocationReason = revocationReason
        self.revocationPercentage = revocationPercentage
    }
}

/// `POST /test/v1/transactions/{id}/refund-request` (optional body): why the customer asks, as
/// `consumptionRequestReason` (default `UNINTENDED_PURCHASE`).
public struct TestRefundRequestBody: Codable, Sendable, Equatable {
    public var consumptionRequestReason: ConsumptionRequestReason?
    public init(consumptionRequestReason: ConsumptionRequestReason? = nil) {
        self.consumptionRequestReason = consumptionRequestReason
    }
}

/// Consumption information a server sent (Send Consumption Information), as received.
public struct TestConsumptionRecord: Codable, Sendable, Equatable {
    public var transactionId: String
    /// `v1` (`PUT /inApps/v1/transactions/consumption/{id}`) or `v2`.
    public var apiVersion: ServerAPIVersion
    /// Milliseconds since 1970.
    public var receivedDate: Int64
    /// The request body, as sent.
    public var request: JSONValue

    public init(transactionId: String, apiVersion: ServerAPIVersion, receivedDate: Int64, request: JSONValue) {
        self.transactionId = transactionId
        self.apiVersion = apiVersion
        self.receivedDate = receivedDate
        self.request = request
    }
}

/// `GET /test/v1/consumption`: oldest first.
public struct TestConsumptionBody: Codable, Sendable, Equatable {
    public var consumption: [TestConsumptionRecord]
    public init(consumption: [TestConsumptionRecord]) { self.consumption = consumption }
}

/// A notification the store made, and every try at delivering it.
public struct TestNotificationRecord: Codable, Sendable, Equatable {
    public var notificationUUID: String
    public var notificationType: NotificationType
    public var subtype: NotificationSubtype?
    public var transactionId: String?
    /// Set for a notification asked for with Request a Test Notification.
    public var testNotificationToken: String?
    public var signedPayload: String
    /// Milliseconds since 1970.
    public var createdDate: Int64
    /// `pending` (a try is due), `delivered`, `failed` (no tries left) or `unsent` (no `--notify` URL).
    public var status: NotificationDeliveryState
    public var sendAttempts: [TestSendAttempt]
    /// When the next try is due (milliseconds since 1970), while `pending`.
    public var nextAttemptDate: Int64?

    public init(
        notificationUUID: String, notificationType: NotificationType, subtype: NotificationSubtype?,
        transactionId: String?,
        testNotificationToken: String?, signedPayload: String, createdDate: Int64, status: NotificationDeliveryState,
        sendAttempts: [TestSendAttempt], nextAttemptDate: Int64?
    ) {
        self.notificationUUID = notificationUUID
        self.notificationType = notificationType
        self.subtype = subtype
        self.transactionId = transactionId
        self.testNotificationToken = testNotificationToken
        self.signedPayload = signedPayload
        self.createdDate = createdDate
        self.status = status
        self.sendAttempts = sendAttempts
        self.nextAttemptDate = nextAttemptDate
    }
}

/// One try at delivering a notification, with what the receiver answered.
public struct TestSendAttempt: Codable, Sendable, Equatable {
    public var attemptDate: Int64
    public var sendAttemptResult: SendAttemptResult
    /// The receiver's HTTP status, when it answered.
    public var httpStatus: Int?
    /// What went wrong, in words.
    public var detail: String?

    public init(attemptDate: Int64, sendAttemptResult: SendAttemptResult, httpStatus: Int? = nil, detail: String? = nil)
    {
        self.attemptDate = attemptDate
        self.sendAttemptResult = sendAttemptResult
        self.httpStatus = httpStatus
        self.detail = detail
    }
}

/// `GET /test/v1/notifications`: a page of the notifications, oldest first, paged as Apple's transaction history
/// is: `hasMore` says whether more follow, and `revision` is the token to send for the next page (or, when none
/// follows, to ask later for only the notifications made since). A list joined from every page (what
/// `mockstore control notifications` prints) has neither.
public struct TestNotificationsBody: Codable, Sendable, Equatable {
    public var notifications: [TestNotificationRecord]
    /// Whether more notifications follow this page (nil in a list joined from every page).
    public var hasMore: Bool?
    /// The token for the next page: the `revision` query item of the next request.
    public var revision: String?

    public init(notifications: [TestNotificationRecord], hasMore: Bool? = nil, revision: String? = nil) {
        self.notifications = notifications
        self.hasMore = hasMore
        self.revision = revision
    }
}
