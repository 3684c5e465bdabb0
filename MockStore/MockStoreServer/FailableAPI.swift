/// The store calls a test control can make fail, named as `SKTestSession`'s `FailableStoreKitAPI` where StoreKit has
/// the API (`finish` is the mock store's own).
public enum FailableAPI: String, Sendable, CaseIterable {
    /// `GET /storekit/v1/products` (`Product.products(for:)`).
    case loadProducts
    /// `POST /storekit/v1/purchases` (`Product.purchase()`).
    case purchase
    /// Every signed transaction the device API hands out is unverifiable (`VerificationResult.unverified`).
    case verification
    /// `GET /storekit/v1/transactions/unfinished` and `…/updates` (`AppStore.sync()`, `Transaction.updates`).
    case appStoreSync
    /// `POST /storekit/v1/transactions/{id}/finish` (`Transaction.finish()`; mock store only).
    case finish

    /// The `name` of this API in a `.storekit` file's `_storeKitErrors`.
    public var catalogueName: String? {
        switch self {
        case .loadProducts: "Load Products"
        case .purchase: "Purchase"
        case .verification: "Verification"
        case .appStoreSync: "App Store Sync"
        case .finish: nil
        }
    }

    /// The API named `name` (`purchase`, `loadProducts`, or the `.storekit` name `Load Products`), any case.
    public init?(named name: String) {
        let wanted = name.lowercased().replacingOccurrences(of: " ", with: "")
        guard let api = Self.allCases.first(where: { $0.rawValue.lowercased() == wanted }) else { return nil }
        self = api
    }

    /// The errors this API can fail with.
    var allowedDomains: [StoreKitFailure.Domain] {
        switch self {
        case .loadProducts, .appStoreSync, .finish: [.storeKitError]
        case .purchase: [.storeKitError, .purchaseError, .skError]
        case .verification: [.verificationError]
        }
    }
}
