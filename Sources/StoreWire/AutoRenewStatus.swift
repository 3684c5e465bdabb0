/// Whether a subscription renews at the end of its period (`autoRenewStatus`): Apple's `AutoRenewStatus`.
///
/// Decodes any value: one Apple adds later is ``unrecognized(_:)``, kept as sent.
public enum AutoRenewStatus: WireIntEnum {
    /// `0`.
    case off
    /// `1`.
    case on
    /// A value none of the cases above has, as sent.
    case unrecognized(Int)

    public static let knownCases: [Self] = [.off, .on]

    public var rawValue: Int {
        switch self {
        case .off: 0
        case .on: 1
        case .unrecognized(let value): value
        }
    }
}
