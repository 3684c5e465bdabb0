/// A StoreKit error as StoreKit names it, its type then its case (`storeKitError` of a simulated failure, `error` of
/// a test control's failure): `StoreKitError.networkError`, `Product.PurchaseError.purchaseNotAllowed`,
/// `SKError.Code.paymentNotAllowed` (the legacy code `SKTestSession.failureError` takes) or
/// `VerificationError.invalidSignature`.
///
/// Decodes any value: a name outside these lists (or spelt another way) is ``unrecognized(_:)``, kept as sent.
public enum StoreKitErrorName: WireStringEnum {
    /// `StoreKitError.<case>`.
    case storeKit(StoreKitErrorCase)
    /// `Product.PurchaseError.<case>`.
    case purchase(PurchaseErrorCase)
    /// `SKError.Code.<case>`.
    case skError(SKErrorCase)
    /// `VerificationError.<case>` (StoreKit's `VerificationResult.VerificationError`).
    case verification(VerificationErrorCase)
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    /// StoreKit's `StoreKitError` cases, in declaration order.
    public enum StoreKitErrorCase: String, Sendable, CaseIterable {
        case unknown, userCancelled, networkError, systemError, notAvailableInStorefront, notEntitled, unsupported
    }

    /// StoreKit's `Product.PurchaseError` cases, in declaration order.
    public enum PurchaseErrorCase: String, Sendable, CaseIterable {
        case invalidQuantity, productUnavailable, purchaseNotAllowed, ineligibleForOffer, invalidOfferIdentifier,
            invalidOfferPrice, invalidOfferSignature, missingOfferParameters
    }

    /// The legacy `SKError.Code` cases a test session can fail with.
    public enum SKErrorCase: String, Sendable, CaseIterable {
        case unknown, clientInvalid, paymentCancelled, paymentInvalid, paymentNotAllowed, storeProductNotAvailable,
            invalidOfferIdentifier, invalidSignature, missingOfferParams, invalidOfferPrice

        /// The `SKError.Code` raw value.
        public var code: Int {
            switch self {
            case .unknown: 0
            case .clientInvalid: 1
            case .paymentCancelled: 2
            case .paymentInvalid: 3
            case .paymentNotAllowed: 4
            case .storeProductNotAvailable: 5
            case .invalidOfferIdentifier: 11
            case .invalidSignature: 12
            case .missingOfferParams: 13
            case .invalidOfferPrice: 14
            }
        }
    }

    /// StoreKit's `VerificationResult.VerificationError` cases, in declaration order.
    public enum VerificationErrorCase: String, Sendable, CaseIterable {
        case invalidCertificateChain, invalidDeviceVerification, invalidEncoding, invalidSignature,
            missingRequiredProperties, revokedCertificate
    }

    public static let knownCases: [Self] =
        StoreKitErrorCase.allCases.map(Self.storeKit) + PurchaseErrorCase.allCases.map(Self.purchase)
        + SKErrorCase.allCases.map(Self.skError) + VerificationErrorCase.allCases.map(Self.verification)

    public var rawValue: String {
        switch self {
        case .storeKit(let name): "StoreKitError." + name.rawValue
        case .purchase(let name): "Product.PurchaseError." + name.rawValue
        case .skError(let name): "SKError.Code." + name.rawValue
        case .verification(let name): "VerificationError." + name.rawValue
        case .unrecognized(let value): value
        }
    }
}
