/// Where a transaction is in its life: the mock store's own field (`status`), which StoreKit does not send.
///
/// Decodes any value: one added later is ``unrecognized(_:)``, kept as sent.
public enum TransactionStatus: WireStringEnum {
    /// Paid: the app sees it (in the purchase answer, the unfinished list) until it finishes it. `purchased`.
    case purchased
    /// Waiting (Ask to Buy, an interrupted purchase): not paid yet, not signed, not visible to the app. `pending`.
    case pending
    /// A pending purchase that was declined: never paid. `declined`.
    case declined
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.purchased, .pending, .declined]

    public var rawValue: String {
        switch self {
        case .purchased: "purchased"
        case .pending: "pending"
        case .declined: "declined"
        case .unrecognized(let value): value
        }
    }
}
