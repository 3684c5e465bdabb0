import Foundation
internal import StoreTransport
internal import StoreWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A failure of the store, in words, inside ``StoreKitError/systemError(_:)``.
struct StoreProblem: Error, CustomStringConvertible, Sendable {
    let description: String
}

/// What a failed device-API call throws: the error StoreKit would throw for it.
enum DeviceFailure {
    /// A failure of any call but a purchase.
    static func storeKitError(_ error: any Error) -> StoreKitError {
        guard let failure = error as? StoreError else { return .systemError(StoreProblem(description: "\(error)")) }
        switch failure {
        case .networkError(let words): return .networkError(urlError(.cannotConnectToHost, words))
        case .noAnswer(let words): return .networkError(urlError(.timedOut, words))
        case .answerTooSlow: return .networkError(urlError(.timedOut, failure.unansweredDetail ?? ""))
        case .answerTooLarge: return .networkError(urlError(.dataLengthExceedsMaximum, failure.unansweredDetail ?? ""))
        case .simulated(let name): return simulated(name)
        case .storeResponse(_, _, let message): return .systemError(StoreProblem(description: message))
        default: return .systemError(StoreProblem(description: failure.description))
        }
    }

    /// A failure of a purchase: the store's refusals as `Product.PurchaseError`; an answer that cannot be read as
    /// no answer (the purchase may have been made).
    static func purchaseError(_ error: any Error) -> any Error {
        guard let failure = error as? StoreError else { return storeKitError(error) }
        switch failure {
        case .systemError(let words): return StoreKitError.networkError(urlError(.cannotParseResponse, words))
        case .storeResponse(_, StoreErrorCode.invalidProductId, _): return Product.PurchaseError.productUnavailable
        case .storeResponse(400, StoreErrorCode.generalBadRequest, _): return Product.PurchaseError.invalidQuantity
        case .simulated(.purchase(let name)): return purchase(name)
        case .simulated(.skError(let name)): return legacy(name)
        default: return storeKitError(error)
        }
    }

    /// A failure of fetching the app transaction. A customer the store has no app transaction for
    /// (`appTransactionDoesNotExist`) is `StoreKitError.unknown`: StoreKit documents only that `AppTransaction.shared`
    /// throws when the app transaction is not available, and has no error of its own for that (`notEntitled` is the
    /// app's entitlement to an API, `notAvailableInStorefront` a product's); what it throws is its catch-all.
    static func appTransactionError(_ error: any Error) -> StoreKitError {
        if case .storeResponse(_, StoreErrorCode.appTransactionDoesNotExist, _) = error as? StoreError {
            return .unknown
        }
        return storeKitError(error)
    }

    /// A purchase the store answered as made, with no transaction that can be read from its answer: as any answer
    /// to a purchase that cannot be read, no answer (the purchase was made, and comes back as unfinished).
    static func unreadablePurchase() -> StoreKitError {
        .networkError(
            urlError(
                .cannotParseResponse, "the store said the purchase was made but sent no transaction that can be read"))
    }

    /// A `URLError` of `code` whose description is `words`.
    static func urlError(_ code: URLError.Code, _ words: String) -> URLError {
        URLError(code, userInfo: [NSLocalizedDescriptionKey: words])
    }

    /// The StoreKit error the store was told to simulate (`StoreKitError.networkError`).
    private static func simulated(_ name: StoreKitErrorName) -> StoreKitError {
        guard case .storeKit(let name) = name else { return .unknown }
        switch name {
        case .networkError:
            return .networkError(urlError(.notConnectedToInternet, "the store simulated a network error"))
        case .systemError: return .systemError(StoreProblem(description: "a simulated system error"))
        case .userCancelled: return .userCancelled
        case .notAvailableInStorefront: return .notAvailableInStorefront
        case .notEntitled: return .notEntitled
        case .unsupported: return .unsupported
        case .unknown: return .unknown
        }
    }

    private static func purchase(_ name: StoreKitErrorName.PurchaseErrorCase) -> Product.PurchaseError {
        switch name {
        case .invalidQuantity: .invalidQuantity
        case .productUnavailable: .productUnavailable
        case .purchaseNotAllowed: .purchaseNotAllowed
        case .ineligibleForOffer: .ineligibleForOffer
        case .invalidOfferIdentifier: .invalidOfferIdentifier
        case .invalidOfferPrice: .invalidOfferPrice
        case .invalidOfferSignature: .invalidOfferSignature
        case .missingOfferParameters: .missingOfferParameters
        }
    }

    /// A legacy `SKError` code, as StoreKit 2 reports the failure it stands for.
    private static func legacy(_ code: StoreKitErrorName.SKErrorCase) -> any Error {
        switch code {
        case .paymentNotAllowed: Product.PurchaseError.purchaseNotAllowed
        case .storeProductNotAvailable: Product.PurchaseError.productUnavailable
        case .paymentInvalid: Product.PurchaseError.invalidQuantity
        case .invalidOfferIdentifier: Product.PurchaseError.invalidOfferIdentifier
        case .invalidSignature: Product.PurchaseError.invalidOfferSignature
        case .missingOfferParams: Product.PurchaseError.missingOfferParameters
        case .invalidOfferPrice: Product.PurchaseError.invalidOfferPrice
        case .paymentCancelled: StoreKitError.userCancelled
        case .clientInvalid: StoreKitError.notEntitled
        case .unknown: StoreKitError.unknown
        }
    }
}
