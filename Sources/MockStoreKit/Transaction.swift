import Foundation
internal import StoreWire

/// StoreKit 2's `Transaction` (https://developer.apple.com/documentation/storekit/transaction): a purchase as the
/// store signed it.
public struct Transaction: Identifiable, Equatable, Hashable, Sendable {
    public let id: UInt64
    public let originalID: UInt64
    public let webOrderLineItemID: String?
    public let productID: String
    public let subscriptionGroupID: String?
    public let appBundleID: String
    public let purchaseDate: Date
    public let originalPurchaseDate: Date
    public let expirationDate: Date?
    public let purchasedQuantity: Int
    public let isUpgraded: Bool
    public let ownershipType: Transaction.OwnershipType
    public let signedDate: Date
    public let revocationDate: Date?
    public let revocationReason: Transaction.RevocationReason?
    public let productType: Product.ProductType
    public let appAccountToken: UUID?
    public let environment: AppStore.Environment
    public let reason: Transaction.Reason
    public let storefront: Storefront
    /// The price paid, in the storefront's currency (the signed `price` is in milliunits).
    public let price: Decimal?
    public let currency: Locale.Currency?
    /// The offer the purchase redeemed (an introductory offer, a promotional offer, an offer code, a win-back), or nil.
    public let offer: Transaction.Offer?
    /// The redeemed offer's type (StoreKit keeps it beside ``offer``, deprecated).
    public var offerType: Transaction.OfferType? { offer?.type }
    /// The redeemed offer's identifier (StoreKit keeps it beside ``offer``, deprecated).
    public var offerID: String? { offer?.id }
    /// The storefront's country, ISO 3166-1 alpha-3 (StoreKit keeps it beside ``storefront``, deprecated).
    public var storefrontCountryCode: String { storefront.countryCode }
    public let deviceVerification: Data
    public let deviceVerificationNonce: UUID
    /// The customer's app transaction id: the same in every transaction of the customer, and in `AppTransaction`.
    public let appTransactionID: String
    /// The transaction's payload as the store signed it, JSON.
    public let jsonRepresentation: Data
    let jws: String

    init(_ payload: SignedTransactionPayload, json: Data, jws: String) throws {
        guard let id = UInt64(payload.transactionId), let originalID = UInt64(payload.originalTransactionId) else {
            throw StoreProblem(description: "a transaction id that is not a number")
        }
        self.id = id
        self.originalID = originalID
        webOrderLineItemID = payload.webOrderLineItemId
        productID = payload.productId
        subscriptionGroupID = payload.subscriptionGroupIdentifier
        appBundleID = payload.bundleId
        purchaseDate = Self.date(payload.purchaseDate)
        originalPurchaseDate = Self.date(payload.originalPurchaseDate)
        expirationDate = payload.expiresDate.map(Self.date)
        purchasedQuantity = payload.quantity
        isUpgraded = payload.isUpgraded ?? false
        ownershipType = Transaction.OwnershipType(rawValue: payload.inAppOwnershipType.rawValue)
        signedDate = Self.date(payload.signedDate)
        revocationDate = payload.revocationDate.map(Self.date)
        revocationReason = payload.revocationReason.map { Transaction.RevocationReason(rawValue: $0.rawValue) }
        productType = Self.productType(payload.type)
        appAccountToken = payload.appAccountToken.flatMap(UUID.init(uuidString:))
        environment = AppStore.Environment(rawValue: payload.environment.rawValue)
        reason = Transaction.Reason(rawValue: payload.transactionReason.rawValue)
        storefront = Storefront(
            countryCode: payload.storefront, id: payload.storefrontId, currency: Locale.Currency(payload.currency))
        price = Decimal(payload.price) / 1000
        currency = Locale.Currency(payload.currency)
        offer = payload.offerType.map { type in
            Transaction.Offer(
                id: payload.offerIdentifier, type: Transaction.OfferType(rawValue: type.rawValue),
                paymentMode: payload.offerDiscountType.map { Transaction.Offer.PaymentMode(rawValue: $0.rawValue) })
        }
        deviceVerification = payload.deviceVerification.flatMap { Data(base64Encoded: $0) } ?? Data()
        deviceVerificationNonce = payload.deviceVerificationNonce.flatMap(UUID.init(uuidString:)) ?? UUID()
        appTransactionID = payload.appTransactionId ?? ""
        jsonRepresentation = json
        self.jws = jws
    }

    /// Tells the store the purchase was delivered: it leaves ``unfinished`` (and ``updates`` at the next launch).
    /// Finishing one twice is fine. As StoreKit's, it never throws: a store that cannot be reached is told the next
    /// time.
    public func finish() async {
        guard let session = try? MockStoreKitSession.shared() else { return }
        try? await session.client.finish(String(id))
    }

    private static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }

    private static func productType(_ type: ProductType) -> Product.ProductType {
        switch type {
        case .consumable: return .consumable
        case .nonConsumable: return .nonConsumable
        case .nonRenewingSubscription: return .nonRenewable
        case .autoRenewableSubscription: return .autoRenewable
        case .unrecognized(let value): return Product.ProductType(rawValue: value)
        }
    }
}

extension Transaction: CustomDebugStringConvertible {
    /// The signed payload, as JSON.
    public var debugDescription: String { String(decoding: jsonRepresentation, as: UTF8.self) }
}

extension Transaction: SignedByStore {
    var signedDateValue: Date { signedDate }
    var deviceStamp: (verification: Data, nonce: UUID)? {
        deviceVerification.isEmpty ? nil : (deviceVerification, deviceVerificationNonce)
    }
}

extension Transaction {
    /// StoreKit 2's `Transaction.OwnershipType`.
    public struct OwnershipType: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let purchased = OwnershipType(rawValue: "PURCHASED")
        public static let familyShared = OwnershipType(rawValue: "FAMILY_SHARED")
    }

    /// StoreKit 2's `Transaction.RevocationReason`.
    public struct RevocationReason: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Refunded for an issue with the app.
        public static let developerIssue = RevocationReason(rawValue: 1)
        /// Refunded for another reason.
        public static let other = RevocationReason(rawValue: 0)
    }

    /// StoreKit 2's `Transaction.OfferType`.
    public struct OfferType: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        public static let introductory = OfferType(rawValue: 1)
        public static let promotional = OfferType(rawValue: 2)
        public static let code = OfferType(rawValue: 3)
        public static let winBack = OfferType(rawValue: 4)
    }

    /// StoreKit 2's `Transaction.Offer`: the offer a purchase redeemed.
    public struct Offer: Equatable, Hashable, Sendable {
        /// The offer's identifier; nil for an introductory offer.
        public let id: String?
        public let type: Transaction.OfferType
        public let paymentMode: Transaction.Offer.PaymentMode?

        /// StoreKit 2's `Transaction.Offer.PaymentMode`.
        public struct PaymentMode: RawRepresentable, Equatable, Hashable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }

            public static let freeTrial = PaymentMode(rawValue: "FREE_TRIAL")
            public static let payAsYouGo = PaymentMode(rawValue: "PAY_AS_YOU_GO")
            public static let payUpFront = PaymentMode(rawValue: "PAY_UP_FRONT")
        }
    }

    /// StoreKit 2's `Transaction.Reason`.
    public struct Reason: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let purchase = Reason(rawValue: "PURCHASE")
        public static let renewal = Reason(rawValue: "RENEWAL")
    }
}
