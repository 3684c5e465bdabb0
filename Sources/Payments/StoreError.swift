/// Errors thrown by a store, shaped like StoreKit's `StoreKitError` and `Product.PurchaseError`. Every description
/// is in plain words for the user: no source location, no framework error code.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    /// The store could not be reached: the request was never received (nothing answers there, no network), so
    /// nothing it asked for happened.
    case networkError(String)
    /// The request was sent and no answer came (it timed out, or the connection was lost): what it asked for may
    /// have happened at the store. A purchase may have been paid.
    case noAnswer(String)
    case systemError(String)
    case notAvailableInStorefront
    case notEntitled
    case unsupported
    case unknown(String)
    case productUnavailable(String)
    case purchaseNotAllowed
    case invalidQuantity
    /// The store answered with an error body: its HTTP status and error code are kept for callers to react to, and
    /// only its message is shown.
    case storeResponse(status: Int, code: Int, message: String)

    public var description: String {
        switch self {
        case .networkError(let detail): return "cannot reach the store: \(detail)"
        case .noAnswer(let detail): return "the store did not answer: \(detail)"
        case .systemError(let detail): return "the store failed: \(detail)"
        case .notAvailableInStorefront: return "this product is not available in this storefront"
        case .notEntitled: return "not entitled"
        case .unsupported: return "not supported by this store"
        case .unknown(let detail): return "the store failed for an unknown reason: \(detail)"
        case .productUnavailable(let id): return "the store does not sell \(id)"
        case .purchaseNotAllowed: return "purchases are not allowed on this device"
        case .invalidQuantity: return "the quantity is not allowed"
        case .storeResponse(_, _, let message): return "the store said: \(message)"
        }
    }

    /// Whether a request that failed this way may still have been carried out by the store.
    public var mayHaveReachedTheStore: Bool {
        if case .noAnswer = self { return true }
        return false
    }
}
