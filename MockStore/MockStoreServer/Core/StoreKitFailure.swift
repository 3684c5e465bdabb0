import StoreWire

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
            case .storeKitError: StoreKitErrorName.StoreKitErrorCase.allCases.map(\.rawValue)
            case .purchaseError: StoreKitErrorName.PurchaseErrorCase.allCases.map(\.rawValue)
            case .skError: StoreKitErrorName.SKErrorCase.allCases.map(\.rawValue)
            case .verificationError: StoreKitErrorName.VerificationErrorCase.allCases.map(\.rawValue)
            }
        }

        /// `SKError.Code` raw values (reference §1).
        static let skErrorCodes: [(name: String, code: Int)] = StoreKitErrorName.SKErrorCase.allCases.map {
            ($0.rawValue, $0.code)
        }
    }

    public var domain: Domain
    public var name: String

    public init(domain: Domain, name: String) {
        self.domain = domain
        self.name = name
    }

    /// `Product.PurchaseError.purchaseNotAllowed`.
    public var description: String { "\(domain.rawValue).\(name)" }

    /// The error as the wire names it (every name ``parse(_:domains:)`` gives is a known case).
    public var wireName: StoreKitErrorName {
        let known: StoreKitErrorName? =
            switch domain {
            case .storeKitError: StoreKitErrorName.StoreKitErrorCase(rawValue: name).map { .storeKit($0) }
            case .purchaseError: StoreKitErrorName.PurchaseErrorCase(rawValue: name).map { .purchase($0) }
            case .skError: StoreKitErrorName.SKErrorCase(rawValue: name).map { .skError($0) }
            case .verificationError: StoreKitErrorName.VerificationErrorCase(rawValue: name).map { .verification($0) }
            }
        return known ?? .unrecognized(description)
    }

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
