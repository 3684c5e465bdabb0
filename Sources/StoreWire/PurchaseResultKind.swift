/// What a purchase call came to (`result` of `POST /storekit/v1/purchases`), as StoreKit 2's
/// `Product.PurchaseResult` names its cases.
///
/// Decodes any value: one added later is ``unrecognized(_:)``, kept as sent.
public enum PurchaseResultKind: WireStringEnum {
    /// Paid: the signed transaction is in the answer. `success`.
    case success
    /// Waiting for a parent's approval (Ask to Buy) or for an issue to be resolved. `pending`.
    case pending
    /// Cancelled, or interrupted as StoreKit 2 reports one. `userCancelled`.
    case userCancelled
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.success, .pending, .userCancelled]

    public var rawValue: String {
        switch self {
        case .success: "success"
        case .pending: "pending"
        case .userCancelled: "userCancelled"
        case .unrecognized(let value): value
        }
    }
}
