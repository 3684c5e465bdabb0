/// What a pending purchase waits for, when the store says (StoreKit itself does not): the mock store's
/// `pendingReason`.
///
/// Decodes any value: one Apple adds later is ``unrecognized(_:)``, kept as sent.
public enum PendingReason: WireStringEnum {
    /// Ask to Buy: a parent or guardian must approve it. `askToBuy`.
    case askToBuy
    /// An interrupted purchase: an issue to resolve in the App Store. `interrupted`.
    case interrupted
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.askToBuy, .interrupted]

    public var rawValue: String {
        switch self {
        case .askToBuy: "askToBuy"
        case .interrupted: "interrupted"
        case .unrecognized(let value): value
        }
    }
}
