/// A product as the mock store's device API returns it (`GET /storekit/v1/products`).
public struct StoreProductInfo: Codable, Sendable, Equatable {
    /// The product id, e.g. `ai.voicedebrief.app.credit.500`.
    public var id: String
    public var type: StoreKitProductType
    public var displayName: String
    public var description: String
    /// The price as the store shows it, e.g. `£5.00`.
    public var displayPrice: String
    /// The price as a decimal string, e.g. `5.00`.
    public var price: String
    /// ISO 4217 currency code, e.g. `GBP`.
    public var currency: String
    /// StoreKit's `Product.isFamilyShareable`: the `.storekit` file's `familyShareable`.
    public var isFamilyShareable: Bool
    /// StoreKit's `Product.subscription`: set for an `autoRenewable` product only (left out of the JSON otherwise).
    public var subscription: StoreSubscriptionInfo?

    public init(
        id: String, type: StoreKitProductType, displayName: String, description: String, displayPrice: String,
        price: String,
        currency: String, isFamilyShareable: Bool = false, subscription: StoreSubscriptionInfo? = nil
    ) {
        self.id = id
        self.type = type
        self.displayName = displayName
        self.description = description
        self.displayPrice = displayPrice
        self.price = price
        self.currency = currency
        self.isFamilyShareable = isFamilyShareable
        self.subscription = subscription
    }

    private enum CodingKeys: String, CodingKey {
        case id, type, displayName, description, displayPrice, price, currency, isFamilyShareable, subscription
    }

    /// `isFamilyShareable` may be missing (stores before it was added): not shareable.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        type = try container.decode(StoreKitProductType.self, forKey: .type)
        displayName = try container.decode(String.self, forKey: .displayName)
        description = try container.decode(String.self, forKey: .description)
        displayPrice = try container.decode(String.self, forKey: .displayPrice)
        price = try container.decode(String.self, forKey: .price)
        currency = try container.decode(String.self, forKey: .currency)
        isFamilyShareable = try container.decodeIfPresent(Bool.self, forKey: .isFamilyShareable) ?? false
        subscription = try container.decodeIfPresent(StoreSubscriptionInfo.self, forKey: .subscription)
    }
}

/// `{"products": [...]}`.
public struct StoreProductsBody: Codable, Sendable, Equatable {
    public var products: [StoreProductInfo]
    public init(products: [StoreProductInfo]) { self.products = products }
}

/// `POST /storekit/v1/purchases` request body.
public struct PurchaseRequestBody: Codable, Sendable, Equatable {
    public var productId: String
    public var quantity: Int?
    public var appAccountToken: String?
    /// Auto-renewable subscriptions: an offer to redeem (promotional, offer code, win-back).
    public var offer: PurchaseOfferOption?
    public init(
        productId: String, quantity: Int? = nil, appAccountToken: String? = nil, offer: PurchaseOfferOption? = nil
    ) {
        self.productId = productId
        self.quantity = quantity
        self.appAccountToken = appAccountToken
        self.offer = offer
    }
}

/// `POST /storekit/v1/purchases` response body: `result` is `success`, `pending` (Ask to Buy) or `userCancelled` (a
/// cancellation, or an interrupted purchase, as StoreKit 2 reports one).
public struct PurchaseResponseBody: Codable, Sendable, Equatable {
    public var result: PurchaseResultKind
    public var signedTransaction: String?
    /// With `pending`: what the purchase waits for, `askToBuy` (a parent's approval) or `interrupted` (the
    /// customer must resolve an issue, e.g. accept new terms).
    public var pendingReason: PendingReason?
    /// With `pending`: the id of the transaction waiting (a mock store addition; StoreKit gives none), so an app can
    /// tell two waiting purchases apart and settle each when it completes.
    public var transactionId: String?
    public init(
        result: PurchaseResultKind, signedTransaction: String? = nil, pendingReason: PendingReason? = nil,
        transactionId: String? = nil
    ) {
        self.result = result
        self.signedTransaction = signedTransaction
        self.pendingReason = pendingReason
        self.transactionId = transactionId
    }
}

/// `{"signedTransactions": [JWS...]}` (unfinished transactions).
public struct SignedTransactionsBody: Codable, Sendable, Equatable {
    public var signedTransactions: [String]
    public init(signedTransactions: [String]) { self.signedTransactions = signedTransactions }
}

/// `GET /storekit/v1/transactions/updates?after=CURSOR` response.
///
/// Each transaction created or changed outside a purchase call since `after`, once, in its latest state (changes to
/// one transaction are coalesced, as StoreKit does); `cursor` resumes after them, `hasMore` says another page waits.
public struct TransactionUpdatesBody: Codable, Sendable, Equatable {
    public var signedTransactions: [String]
    public var cursor: String
    public var hasMore: Bool?
    public init(signedTransactions: [String], cursor: String, hasMore: Bool? = nil) {
        self.signedTransactions = signedTransactions
        self.cursor = cursor
        self.hasMore = hasMore
    }
}

/// Every error the store returns: `{"errorCode": N, "errorMessage": "..."}`.
public struct StoreErrorBody: Codable, Sendable, Equatable, Error {
    public var errorCode: Int
    public var errorMessage: String
    public init(errorCode: Int, errorMessage: String) {
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }
}

/// Error codes shared by the mock store and its clients (Apple's where Apple has one).
public enum StoreErrorCode {
    public static let generalBadRequest = 4_000_000
    public static let invalidAppIdentifier = 4_000_002
    public static let invalidRequestRevision = 4_000_005
    public static let invalidTransactionId = 4_000_006
    /// Get Notification History: `startDate` is further back than the history keeps.
    public static let startDateTooFarInPast = 4_000_012
    /// `startDate` is not before `endDate`.
    public static let startDateAfterEndDate = 4_000_013
    public static let invalidPaginationToken = 4_000_014
    public static let invalidStartDate = 4_000_015
    public static let invalidEndDate = 4_000_016
    /// Get Notification History: an unknown `notificationType`, or a `notificationSubtype` that does not go with it.
    public static let invalidNotificationType = 4_000_018
    /// Get Notification History: both `transactionId` and `notificationType`.
    public static let multipleFiltersSupplied = 4_000_019
    public static let invalidSort = 4_000_021
    public static let invalidProductType = 4_000_022
    public static let invalidProductId = 4_000_023
    public static let invalidInAppOwnershipType = 4_000_026
    public static let invalidRevoked = 4_000_030
    public static let invalidAccountTenure = 4_000_032
    /// Send Consumption Information (v1): `appAccountToken` is neither a UUID nor empty.
    public static let invalidConsumptionAppAccountToken = 4_000_033
    public static let invalidConsumptionStatus = 4_000_034
    public static let invalidCustomerConsented = 4_000_035
    public static let invalidDeliveryStatus = 4_000_036
    public static let invalidLifetimeDollarsPurchased = 4_000_037
    public static let invalidLifetimeDollarsRefunded = 4_000_038
    public static let invalidPlatform = 4_000_039
    public static let invalidPlayTime = 4_000_040
    public static let invalidSampleContentProvided = 4_000_041
    public static let invalidUserStatus = 4_000_042
    public static let invalidTransactionNotConsumable = 4_000_043
    /// Set App Account Token: an `appTransactionId` was given (`AppTransactionIdNotSupportedError`).
    public static let appTransactionIdNotSupported = 4_000_048
    /// The `appAccountToken` is not a UUID.
    public static let invalidAppAccountToken = 4_000_183
    /// Set App Account Token: the transaction came through Family Sharing.
    public static let familyTransactionNotSupported = 4_000_185
    /// Set App Account Token: the id is not an original transaction id.
    public static let transactionIdIsNotOriginalTransactionId = 4_000_187
    /// No endpoint at this path (mock store only).
    public static let notFound = 4_040_000
    /// No `--notify` URL: the store has nowhere to send notifications.
    public static let serverNotificationURLNotFound = 4_040_007
    public static let testNotificationNotFound = 4_040_008
    public static let transactionIdNotFound = 4_040_010
    /// No customer of that name (`X-Mock-Customer`, `--customer`; mock store only).
    public static let customerNotFound = 4_040_020
    /// Get App Transaction Info: the customer has no app transaction.
    public static let appTransactionDoesNotExist = 4_040_019
    public static let methodNotAllowed = 4_050_000
    /// A test control that does not fit the transaction's state, e.g. approving a purchase that is not pending
    /// (mock store only).
    public static let conflict = 4_090_000
    public static let payloadTooLarge = 4_130_000
    public static let generalInternal = 5_000_000
    /// A test control made this call fail (mock store only); `errorMessage` names the StoreKit error.
    public static let simulatedStoreKitError = 5_030_000
}

/// `GET /storekit/v1/purchases/{transactionId}` (a mock store addition: StoreKit tells an app neither a decline nor
/// a lapse): what became of a purchase the store answered pending.
public struct PurchaseStatusBody: Codable, Sendable, Equatable {
    public var transactionId: String
    /// `pending` (still waiting), `purchased` (approved or resolved: it reaches the app as an update) or
    /// `declined` (never paid).
    public var status: TransactionStatus
    /// With `pending`.
    public var pendingReason: PendingReason?

    public init(transactionId: String, status: TransactionStatus, pendingReason: PendingReason? = nil) {
        self.transactionId = transactionId
        self.status = status
        self.pendingReason = pendingReason
    }
}
