import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// StoreKit 2's `StoreKitError` (https://developer.apple.com/documentation/storekit/storekiterror): what a StoreKit
/// call throws when the store cannot do what it asked.
public enum StoreKitError: Error, LocalizedError, Sendable {
    /// The App Store could not be reached, or did not answer: its `URLError` says which.
    case networkError(URLError)
    /// A failure of the system (here: of the store, or of its answer).
    case systemError(any Error)
    /// The user cancelled.
    case userCancelled
    /// The product is not available in the current storefront.
    case notAvailableInStorefront
    /// The app is not entitled to the API.
    case notEntitled
    /// The API is not supported.
    case unsupported
    /// An unknown error.
    case unknown

    public var errorDescription: String? {
        switch self {
        case .networkError(let error): return error.localizedDescription
        case .systemError(let error): return "\(error)"
        case .userCancelled: return "The user cancelled."
        case .notAvailableInStorefront: return "The product is not available in this storefront."
        case .notEntitled: return "The app is not entitled to this."
        case .unsupported: return "This is not supported."
        case .unknown: return "An unknown error occurred."
        }
    }
}

extension Product {
    /// StoreKit 2's `Product.PurchaseError` (https://developer.apple.com/documentation/storekit/product/purchaseerror).
    public enum PurchaseError: Error, LocalizedError, Equatable, Hashable, Sendable {
        case invalidQuantity
        case productUnavailable
        case purchaseNotAllowed
        case ineligibleForOffer
        case invalidOfferIdentifier
        case invalidOfferPrice
        case invalidOfferSignature
        case missingOfferParameters

        public var errorDescription: String? {
            switch self {
            case .invalidQuantity: return "The quantity is not allowed."
            case .productUnavailable: return "The product is not available."
            case .purchaseNotAllowed: return "Purchases are not allowed on this device."
            case .ineligibleForOffer: return "The customer is not eligible for this offer."
            case .invalidOfferIdentifier: return "The offer identifier is not valid."
            case .invalidOfferPrice: return "The offer price is not valid."
            case .invalidOfferSignature: return "The offer's signature is not valid."
            case .missingOfferParameters: return "The offer's parameters are missing."
            }
        }
    }
}
