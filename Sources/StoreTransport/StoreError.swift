import Foundation
import StoreWire

/// Errors thrown by a store, shaped like StoreKit's `StoreKitError` and `Product.PurchaseError`. Every description
/// is in plain words for the user: no source location, no framework error code.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    /// The store could not be reached: the request was never received (nothing answers there, no network), so
    /// nothing it asked for happened.
    case networkError(String)
    /// The request was sent and no answer came (it timed out, or the connection was lost): what it asked for may
    /// have happened at the store. A purchase may have been paid.
    case noAnswer(String)
    /// The store's answer did not come whole within the whole-request deadline (`seconds`: connecting, the header
    /// and the body together), so it was cut off; `place` is the store's host and port. A store that sends its
    /// answer a byte at a time ends here. The request may have reached the store, as with ``noAnswer(_:)``.
    case answerTooSlow(place: String, seconds: TimeInterval)
    /// The store's answer grew past `limit` bytes and was not read further (memory stays bounded); `place` is the
    /// store's host and port. An answer came, so the request reached the store: what it asked for may have happened.
    case answerTooLarge(place: String, limit: Int)
    /// The store's transaction history still said there was more after `pages` pages, the most a client follows.
    case historyDidNotEnd(pages: Int)
    /// Page `page` of the store's transaction history gave a `revision` it had given before: paging made no
    /// progress, so it stopped there.
    case historyDidNotMoveOn(page: Int)
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
    case storeResponse(status: Int, code: StoreErrorCode, message: String)
    /// The store answered the request with a StoreKit error (`StoreKitError.networkError` and the like, as the mock
    /// store simulates them): it did nothing with it. The reason in words.
    case refused(String)
    /// The mock store answered with a StoreKit error a test control told it to simulate: `storeKitError` names it as
    /// StoreKit does (`StoreKitError.networkError`, `Product.PurchaseError.purchaseNotAllowed`). It did nothing.
    case simulated(storeKitError: StoreKitErrorName)

    public var description: String {
        switch self {
        case .networkError(let detail): return "cannot reach the store: \(detail)"
        case .noAnswer(let detail): return "the store did not answer: \(detail)"
        case .answerTooSlow: return "the store did not answer in time: \(unansweredDetail ?? "")"
        case .answerTooLarge(let place, let limit):
            return "the store's answer from \(place) was larger than \(Self.bytes(limit)), so it was not read"
        case .historyDidNotEnd(let pages):
            return "the store's transaction history did not end: it still said there was more after "
                + "\(Self.grouped(pages)) pages, so it was not read further"
        case .historyDidNotMoveOn(let page):
            return "the store's transaction history did not move on: page \(Self.grouped(page)) gave a revision "
                + "it had given before, so it was not read further"
        case .systemError(let detail): return "the store failed: \(detail)"
        case .notAvailableInStorefront: return "this product is not available in this storefront"
        case .notEntitled: return "not entitled"
        case .unsupported: return "not supported by this store"
        case .unknown(let detail): return "the store failed for an unknown reason: \(detail)"
        case .productUnavailable(let id): return "the store does not sell \(id)"
        case .purchaseNotAllowed: return "purchases are not allowed on this device"
        case .invalidQuantity: return "the quantity is not allowed"
        case .storeResponse(_, _, let message): return "the store said: \(message)"
        case .refused(let reason): return "the store refused the request with \(reason)"
        case .simulated(let name):
            return StoreError(storeKitError: name)?.description ?? "the store refused the request with \(name.rawValue)"
        }
    }

    /// The error StoreKit throws under `name` (`StoreKitError.networkError`, `Product.PurchaseError.purchaseNotAllowed`,
    /// as the mock store names a simulated one), or nil for a name this client has no case of.
    public init?(storeKitError name: StoreKitErrorName) {
        switch name {
        case .storeKit(.networkError): self = .refused("a network error")
        case .storeKit(.systemError): self = .refused("a system error")
        case .storeKit(.unknown): self = .refused("an unknown error")
        case .storeKit(.notAvailableInStorefront): self = .notAvailableInStorefront
        case .storeKit(.notEntitled): self = .notEntitled
        case .storeKit(.unsupported): self = .unsupported
        case .purchase(.purchaseNotAllowed): self = .purchaseNotAllowed
        case .purchase(.invalidQuantity): self = .invalidQuantity
        case .purchase(.productUnavailable): self = .productUnavailable("this product")
        default: return nil
        }
    }

    /// Whether a request that failed this way may still have been carried out by the store.
    public var mayHaveReachedTheStore: Bool { unansweredDetail != nil }

    /// What became of a request that may have reached the store (``mayHaveReachedTheStore``), in words that follow
    /// "it was sent to the store, and"; nil for a failure that cannot have reached it.
    public var unansweredDetail: String? {
        switch self {
        case .noAnswer(let detail): return detail
        case .answerTooSlow(let place, let seconds):
            return "the answer from \(place) did not come whole within \(TransportFailure.seconds(seconds))"
        case .answerTooLarge(let place, let limit):
            return "the answer from \(place) was larger than \(Self.bytes(limit)), so it was not read"
        default: return nil
        }
    }

    /// `count` bytes in the largest unit that divides it ("16 MiB", "64 KiB", "1000 bytes").
    static func bytes(_ count: Int) -> String {
        if count >= 1 << 20 && count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
        if count >= 1 << 10 && count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
        return count == 1 ? "1 byte" : "\(count) bytes"
    }

    /// `number` with a comma between thousands ("1,000"), as the README writes numbers.
    private static func grouped(_ number: Int) -> String {
        var digits = String(number.magnitude)
        var groups: [String] = []
        while digits.count > 3 {
            groups.insert(String(digits.suffix(3)), at: 0)
            digits.removeLast(3)
        }
        groups.insert(digits, at: 0)
        return (number < 0 ? "-" : "") + groups.joined(separator: ",")
    }
}
