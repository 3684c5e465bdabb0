import Foundation
import Payments

#if canImport(StoreKit)
    import StoreKit
#else
    import MockStoreKit
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// StoreKit's errors as the payments layer's ``StoreError``: whether the request may have reached the store, in
/// plain words.
enum AppStoreErrors {
    /// `body`, its StoreKit errors turned into ``StoreError``.
    static func mapped<Value>(_ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch {
            throw storeError(error, productID: nil)
        }
    }

    /// `body`, a step before anything is sent to buy (the product's lookup): whatever its failure, nothing was bought,
    /// so one the store may have received is said as one that never reached it.
    static func beforeSending<Value>(_ body: () async throws -> Value) async throws -> Value {
        do {
            return try await mapped(body)
        } catch let error as StoreError where error.mayHaveReachedTheStore {
            throw StoreError.networkError(error.unansweredDetail ?? error.description)
        }
    }

    /// The ``StoreError`` for what StoreKit threw; `productID` names the product a purchase was for.
    static func storeError(_ error: any Error, productID: String?) -> any Error {
        if let failure = error as? StoreKitError { return storeError(failure) }
        if let failure = error as? Product.PurchaseError { return storeError(failure, productID: productID) }
        return error
    }

    private static func storeError(_ error: StoreKitError) -> StoreError {
        switch error {
        case .networkError(let failure):
            let words = failure.localizedDescription
            return neverSent.contains(failure.code) ? .networkError(words) : .noAnswer(words)
        case .systemError(let inner): return .systemError("\(inner)")
        case .notAvailableInStorefront: return .notAvailableInStorefront
        case .notEntitled: return .notEntitled
        case .unsupported: return .unsupported
        case .userCancelled: return .unknown("the request was cancelled")
        case .unknown: return .unknown("the App Store did not say why")
        @unknown default: return .unknown(error.localizedDescription)
        }
    }

    private static func storeError(_ error: Product.PurchaseError, productID: String?) -> StoreError {
        switch error {
        case .purchaseNotAllowed: return .purchaseNotAllowed
        case .invalidQuantity: return .invalidQuantity
        case .productUnavailable: return .productUnavailable(productID ?? "this product")
        default: return .unknown(error.localizedDescription)
        }
    }

    /// The URL errors of a request that never left the device or never reached the store: nothing happened there.
    private static let neverSent: Set<URLError.Code> = [
        .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet, .badURL, .unsupportedURL,
        .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
        .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
        .clientCertificateRequired,
    ]
}
