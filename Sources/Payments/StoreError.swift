/// Errors thrown by a store, shaped like StoreKit's `StoreKitError` and `Product.PurchaseError`.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    case networkError(String)
    case systemError(String)
    case notAvailableInStorefront
    case notEntitled
    case unsupported
    case unknown(String)
    case productUnavailable(String)
    case purchaseNotAllowed
    case invalidQuantity
    /// The store answered with an error body.
    case storeResponse(status: Int, code: Int, message: String)

    public var description: String {
        switch self {
        case .networkError(let detail): return "cannot reach the store: \(detail)"
        case .systemError(let detail): return "the store failed: \(detail)"
        case .notAvailableInStorefront: return "this product is not available in this storefront"
        case .notEntitled: return "not entitled"
        case .unsupported: return "not supported by this store"
        case .unknown(let detail): return "the store failed for an unknown reason: \(detail)"
        case .productUnavailable(let id): return "the store does not sell \(id)"
        case .purchaseNotAllowed: return "purchases are not allowed on this device"
        case .invalidQuantity: return "the quantity is not allowed"
        case .storeResponse(let status, let code, let message):
            return "the store said: \(message) (HTTP \(status), error \(code))"
        }
    }
}
