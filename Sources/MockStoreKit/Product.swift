import Foundation
internal import StoreWire

/// StoreKit 2's `Product` (https://developer.apple.com/documentation/storekit/product): a product the store sells,
/// as the mock store's catalogue describes it.
public struct Product: Identifiable, Equatable, Hashable, Sendable {
    /// The product identifier, as in App Store Connect (here: the `.storekit` file).
    public let id: String
    /// Consumable, non-consumable, non-renewing or auto-renewable.
    public let type: Product.ProductType
    /// The localized name.
    public let displayName: String
    /// The localized description.
    public let description: String
    /// The price in the storefront's currency.
    public let price: Decimal
    /// The price as the store shows it, e.g. `£5.00`.
    public let displayPrice: String
    /// Whether Family Sharing shares it.
    public let isFamilyShareable: Bool
    /// An auto-renewable subscription's details; nil for any other product.
    public let subscription: Product.SubscriptionInfo?
    /// The product as the store described it, JSON.
    public let jsonRepresentation: Data
    /// The storefront's currency (ISO 4217) and the locale ``displayPrice`` is written for.
    let currencyCode: String
    let priceLocale: Locale

    /// The format style for ``price``: the storefront's currency, in the locale the store wrote ``displayPrice``
    /// for, so that `price.formatted(priceFormatStyle)` reads as ``displayPrice`` does.
    public var priceFormatStyle: Decimal.FormatStyle.Currency {
        Decimal.FormatStyle.Currency(code: currencyCode, locale: priceLocale)
    }

    init(_ info: StoreProductInfo) {
        id = info.id
        type = Product.ProductType(rawValue: info.type.rawValue)
        displayName = info.displayName
        description = info.description
        price = Decimal(string: info.price, locale: Locale(identifier: "en_US_POSIX")) ?? 0
        displayPrice = info.displayPrice
        isFamilyShareable = info.isFamilyShareable
        subscription = info.subscription.map(Product.SubscriptionInfo.init)
        jsonRepresentation = (try? JSONEncoder().encode(info)) ?? Data()
        currencyCode = info.currency
        priceLocale = Locale(identifier: info.locale ?? "en_US")
    }

    /// The products with these identifiers: duplicates once, unknown identifiers left out (never an error).
    public static func products<Identifiers>(for identifiers: Identifiers) async throws -> [Product]
    where Identifiers: Collection, Identifiers.Element == String {
        var seen: Set<String> = []
        let unique = identifiers.filter { seen.insert($0).inserted }
        guard !unique.isEmpty else { return [] }
        let session = try MockStoreKitSession.shared()
        return try await session.client.products(Array(unique)).map(Product.init)
    }

    /// The customer's latest transaction for this product, or nil.
    public var latestTransaction: VerificationResult<Transaction>? {
        get async { await Transaction.latest(for: id) }
    }

    /// The customer's current entitlement to this product, or nil.
    public var currentEntitlement: VerificationResult<Transaction>? {
        get async { await Transaction.currentEntitlement(for: id) }
    }

    /// The customer's current entitlements to this product.
    public var currentEntitlements: Transaction.Transactions { Transaction.currentEntitlements(for: id) }

    /// Buys the product: success with the signed transaction (verified or not), pending (Ask to Buy), or cancelled
    /// (also an interrupted purchase, which completes later through ``Transaction/updates``).
    public func purchase(options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult {
        let session = try MockStoreKitSession.shared()
        var request = PurchaseRequestBody(productId: id)
        for option in options {
            switch option.kind {
            case .appAccountToken(let token): request.appAccountToken = token.uuidString.lowercased()
            case .quantity(let quantity):
                guard quantity >= 1 else { throw Product.PurchaseError.invalidQuantity }
                request.quantity = quantity
            case .promotionalOffer(let offerID, let keyID, let nonce, let signature, let timestamp):
                request.offer = PurchaseOfferOption(
                    type: .promotional, id: offerID, keyID: keyID, nonce: nonce.uuidString.lowercased(),
                    timestamp: Int64(timestamp), signature: signature.base64EncodedString())
            case .winBackOffer(let offerID): request.offer = PurchaseOfferOption(type: .winBack, id: offerID)
            case .simulatesAskToBuyInSandbox(let simulates): request.simulatesAskToBuy = simulates
            case .custom:
                // Passed to the App Store for the developer's own analysis; no purchase depends on it.
                break
            }
        }
        let answer = try await session.client.purchase(request)
        return try Product.PurchaseResult(answer, session)
    }
}

extension Product {
    /// StoreKit 2's `Product.ProductType`: a struct of static values, not an enum.
    public struct ProductType: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let consumable = ProductType(rawValue: "consumable")
        public static let nonConsumable = ProductType(rawValue: "nonConsumable")
        public static let nonRenewable = ProductType(rawValue: "nonRenewable")
        public static let autoRenewable = ProductType(rawValue: "autoRenewable")

        /// The type in words.
        public var localizedDescription: String {
            switch self {
            case .consumable: return "Consumable"
            case .nonConsumable: return "Non-Consumable"
            case .nonRenewable: return "Non-Renewing Subscription"
            case .autoRenewable: return "Auto-Renewable Subscription"
            default: return rawValue
            }
        }
    }

    /// StoreKit 2's `Product.PurchaseResult`.
    public enum PurchaseResult: Equatable, Sendable {
        /// Paid: the signed transaction, verified or not. Deliver it, then call ``Transaction/finish()``.
        case success(VerificationResult<Transaction>)
        /// The user cancelled.
        case userCancelled
        /// Waiting for approval (Ask to Buy): it arrives through ``Transaction/updates`` if it completes.
        case pending

        init(_ answer: PurchaseResponseBody, _ session: MockStoreKitSession) throws {
            switch answer.result {
            case .success:
                guard let jws = answer.signedTransaction, let result = session.transaction(jws) else {
                    throw DeviceFailure.unreadablePurchase()
                }
                self = .success(result)
            case .pending: self = .pending
            case .userCancelled: self = .userCancelled
            case .unrecognized: throw StoreKitError.unknown
            }
        }
    }

    /// StoreKit 2's `Product.PurchaseOption`.
    public struct PurchaseOption: Equatable, Hashable, Sendable {
        enum Kind: Equatable, Hashable, Sendable {
            case appAccountToken(UUID)
            case quantity(Int)
            case promotionalOffer(offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int)
            case winBackOffer(offerID: String)
            case simulatesAskToBuyInSandbox(Bool)
            case custom(key: String, value: CustomValue)
        }

        /// A custom option's value: StoreKit takes a string, a number, a Boolean or data.
        enum CustomValue: Equatable, Hashable, Sendable {
            case string(String)
            case double(Double)
            case bool(Bool)
            case data(Data)
        }

        let kind: Kind

        /// The account the purchase is for: it comes back as the transaction's ``Transaction/appAccountToken``.
        public static func appAccountToken(_ token: UUID) -> Product.PurchaseOption {
            .init(kind: .appAccountToken(token))
        }

        /// How many to buy (consumables).
        public static func quantity(_ quantity: Int) -> Product.PurchaseOption { .init(kind: .quantity(quantity)) }

        /// A promotional offer, signed by the developer's subscription offer key.
        public static func promotionalOffer(
            offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int
        ) -> Product.PurchaseOption {
            .init(
                kind: .promotionalOffer(
                    offerID: offerID, keyID: keyID, nonce: nonce, signature: signature, timestamp: timestamp))
        }

        /// A win-back offer of the subscription (one of its ``Product/SubscriptionInfo/winBackOffers``), for a
        /// customer whose subscription has lapsed.
        public static func winBackOffer(_ offer: Product.SubscriptionOffer) -> Product.PurchaseOption {
            .init(kind: .winBackOffer(offerID: offer.id ?? ""))
        }

        /// In the sandbox, makes this purchase wait for Ask to Buy (`true`) as a child's account would; ignored in
        /// production, as Apple's is.
        public static func simulatesAskToBuyInSandbox(_ simulateAskToBuy: Bool) -> Product.PurchaseOption {
            .init(kind: .simulatesAskToBuyInSandbox(simulateAskToBuy))
        }

        /// A key and value of the developer's own, passed along with the purchase.
        public static func custom(key: String, value: String) -> Product.PurchaseOption {
            .init(kind: .custom(key: key, value: .string(value)))
        }

        /// A key and value of the developer's own, passed along with the purchase.
        public static func custom(key: String, value: Double) -> Product.PurchaseOption {
            .init(kind: .custom(key: key, value: .double(value)))
        }

        /// A key and value of the developer's own, passed along with the purchase.
        public static func custom(key: String, value: Bool) -> Product.PurchaseOption {
            .init(kind: .custom(key: key, value: .bool(value)))
        }

        /// A key and value of the developer's own, passed along with the purchase.
        public static func custom(key: String, value: Data) -> Product.PurchaseOption {
            .init(kind: .custom(key: key, value: .data(value)))
        }
    }
}
