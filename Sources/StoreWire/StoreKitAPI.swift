/// A store call a test control can make fail (`api`), named as `SKTestSession`'s `FailableStoreKitAPI` where
/// StoreKit has the API (`finish` and `storefront` are the mock store's own).
///
/// Decodes any value: one added later is ``unrecognized(_:)``, kept as sent.
public enum StoreKitAPI: WireStringEnum {
    /// `GET /storekit/v1/products` (`Product.products(for:)`). `loadProducts`.
    case loadProducts
    /// `POST /storekit/v1/purchases` (`Product.purchase()`). `purchase`.
    case purchase
    /// Every signed transaction the device API hands out is unverifiable. `verification`.
    case verification
    /// The unfinished and updates lists (`AppStore.sync()`, `Transaction.updates`). `appStoreSync`.
    case appStoreSync
    /// `GET /storekit/v1/app-transaction` (`AppTransaction.shared`, `refresh()`). `appTransaction`.
    case appTransaction
    /// `POST /storekit/v1/transactions/{id}/finish` (`Transaction.finish()`). `finish`.
    case finish
    /// `GET /storekit/v1/storefront` (`Storefront.current`, `Storefront.updates`; the mock store's own). `storefront`.
    case storefront
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [
        .loadProducts, .purchase, .verification, .appStoreSync, .appTransaction, .finish, .storefront,
    ]

    public var rawValue: String {
        switch self {
        case .loadProducts: "loadProducts"
        case .purchase: "purchase"
        case .verification: "verification"
        case .appStoreSync: "appStoreSync"
        case .appTransaction: "appTransaction"
        case .finish: "finish"
        case .storefront: "storefront"
        case .unrecognized(let value): value
        }
    }
}
