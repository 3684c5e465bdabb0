/// A StoreKit error, named as StoreKit names it: `StoreKitError`, `Product.PurchaseError`, the legacy `SKError.Code`
/// (what `SKTestSession.failureError` takes) or `VerificationResult.VerificationError`.
public struct StoreKitFailure: Equatable, Sendable, CustomStringConvertible {
    /// The error type.
    public enum Domain: String, Sendable, CaseIterable {
        case storeKitError = "StoreKitError"
        case purchaseError = "Product.PurchaseError"
        case skError = "SKError.Code"
        case verificationError = "VerificationError"

        /// The cases in declaration order (what `current.index` in a `.storekit` file counts, as we read it).
        var cases: [String] {
            switch self {
            case .storeKitError:
                [
                    "unknown", "userCancelled", "networkError", "systemError", "notAvailableInStorefront",
                    "notEntitled",
                    "unsupported",
                ]
            case .purchaseError:
                [
                    "invalidQuantity", "productUnavailable", "purchaseNotAllowed", "ineligibleForOffer",
                    "invalidOfferIdentifier", "invalidOfferPrice", "invalidOfferSignature", "missingOfferParameters",
                ]
            case .skError:
                Self.skErrorCodes.map(\.name)
            case .verificationError:
                [
                    "invalidCertificateChain", "invalidDeviceVerification", "invalidEncoding", "invalidSignature",
                    "missingRequiredProperties", "revokedCertificate",
                ]
            }
        }

        /// `SKError.Code` raw values (reference §1).
        static let skErrorCodes: [(name: String, code: Int)] = [
            ("unknown", 0), ("clientInvalid", 1), ("paymentCancelled", 2), ("paymentInvalid", 3),
            ("paymentNotAllowed", 4), ("storeProductNotAvailable", 5), ("invalidOfferIdentifier", 11),
            ("invalidSignature", 12), ("missingOfferParams", 13), ("invalidOfferPrice", 14),
        ]
    }

    public var domain: Domain
    public var name: String

    public init(domain: Domain, name: String) {
        self.domain = domain
        self.name = name
    }

    /// `Product.PurchaseError.purchaseNotAllowed`.
    public var description: String { "\(domain.rawValue).\(name)" }

    /// The `SKError.Code` raw value of this error, or of the legacy error that matches it.
    public var skErrorCode: Int? {
        let legacyName: String?
        switch (domain, name) {
        case (.skError, _): legacyName = name
        case (.storeKitError, "unknown"), (.storeKitError, "systemError"), (.storeKitError, "networkError"):
            legacyName = "unknown"
        case (.storeKitError, "userCancelled"): legacyName = "paymentCancelled"
        case (.purchaseError, "purchaseNotAllowed"): legacyName = "paymentNotAllowed"
        case (.purchaseError, "productUnavailable"), (.storeKitError, "notAvailableInStorefront"):
            legacyName = "storeProductNotAvailable"
        case (.purchaseError, "invalidQuantity"): legacyName = "paymentInvalid"
        case (.purchaseError, "invalidOfferIdentifier"): legacyName = "invalidOfferIdentifier"
        case (.purchaseError, "invalidOfferSignature"): legacyName = "invalidSignature"
        case (.purchaseError, "missingOfferParameters"): legacyName = "missingOfferParams"
        case (.purchaseError, "invalidOfferPrice"): legacyName = "invalidOfferPrice"
        default: legacyName = nil
        }
        return legacyName.flatMap { legacy in Domain.skErrorCodes.first { $0.name == legacy }?.code }
    }

    /// Whether StoreKit reports this as the user cancelling (a `.userCancelled` purchase result, not an error).
    var isUserCancellation: Bool {
        (domain == .storeKitError && name == "userCancelled") || (domain == .skError && name == "paymentCancelled")
    }

    /// Reads `purchaseNotAllowed`, `Product.PurchaseError.purchaseNotAllowed`, `PurchaseError.purchaseNotAllowed`,
    /// `SKError.paymentNotAllowed`, `SKError.Code.paymentNotAllowed`, `SKError.4`, `StoreKitError.networkError`,
    /// `VerificationError.invalidSignature`. A bare name is looked up in `domains` in order.
    public static func parse(_ text: String, domains: [Domain] = Domain.allCases) -> StoreKitFailure? {
        let aliases: [(String, Domain)] = [
            ("Product.PurchaseError.", .purchaseError), ("PurchaseError.", .purchaseError),
            ("SKError.Code.", .skError), ("SKError.", .skError), ("StoreKitError.", .storeKitError),
            ("VerificationResult.VerificationError.", .verificationError),
            ("VerificationError.", .verificationError),
        ]
        for (prefix, domain) in aliases where text.hasPrefix(prefix) {
            let name = String(text.dropFirst(prefix.count))
            if domain == .skError, let code = Int(name),
                let known = Domain.skErrorCodes.first(where: { $0.code == code })
            {
                return StoreKitFailure(domain: .skError, name: known.name)
            }
            return domain.cases.contains(name) ? StoreKitFailure(domain: domain, name: name) : nil
        }
        for domain in domains where domain.cases.contains(text) {
            return StoreKitFailure(domain: domain, name: text)
        }
        return nil
    }

    /// The error a `.storekit` file's `_storeKitErrors` entry names: `current` `{"index": N, "type": T}` with
    /// `type` `generic` (StoreKitError), `purchase` (Product.PurchaseError) or `verification`; no `current` means
    /// `StoreKitError.unknown` (`VerificationError.invalidSignature` for Verification).
    static func fromCatalogue(api: FailableAPI, index: Int?, type: String?) -> StoreKitFailure? {
        guard let index else {
            return api == .verification
                ? StoreKitFailure(domain: .verificationError, name: "invalidSignature")
                : StoreKitFailure(domain: .storeKitError, name: "unknown")
        }
        let domain: Domain
        switch type?.lowercased() {
        case "purchase": domain = .purchaseError
        case "verification": domain = .verificationError
        default: domain = api == .verification ? .verificationError : .storeKitError
        }
        let cases = domain.cases
        guard cases.indices.contains(index) else { return nil }
        return StoreKitFailure(domain: domain, name: cases[index])
    }
}
