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
    /// The locale `displayPrice` is written for (e.g. `en_GB`): StoreKit's `Product.priceFormatStyle` formats
    /// `price` with it. Missing from stores before it was added.
    public var locale: String?

    public init(
        id: String, type: StoreKitProductType, displayName: String, description: String, displayPrice: String,
        price: String,
        currency: String, isFamilyShareable: Bool = false, subscription: StoreSubscriptionInfo? = nil,
        locale: String? = nil
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
        self.locale = locale
    }

    private enum CodingKeys: String, CodingKey {
        case id, type, displayName, description, displayPrice, price, currency, isFamilyShareable, subscription, locale
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
        locale = try container.decodeIfPresent(String.self, forKey: .locale)
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
    /// StoreKit's `simulatesAskToBuyInSandbox(true)`: this purchase waits for Ask to Buy (a sandbox store only).
    public var simulatesAskToBuy: Bool?
    public init(
        productId: String, quantity: Int? = nil, appAccountToken: String? = nil, offer: PurchaseOfferOption? = nil,
        simulatesAskToBuy: Bool? = nil
    ) {
        self.productId = productId
        self.quantity = quantity
        self.appAccountToken = appAccountToken
        self.offer = offer
        self.simulatesAskToBuy = simulatesAskToBuy
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
    public var errorCode: StoreErrorCode
    public var errorMessage: String
    public init(errorCode: StoreErrorCode, errorMessage: String) {
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }
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
