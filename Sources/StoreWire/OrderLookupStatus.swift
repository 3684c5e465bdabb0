/// Whether Look Up Order ID found the order (`status`): Apple's `OrderLookupStatus`.
///
/// Decodes any value: one Apple adds later is ``unrecognized(_:)``, kept as sent.
public enum OrderLookupStatus: WireIntEnum {
    /// `0`.
    case valid
    /// `1`.
    case invalid
    /// A value none of the cases above has, as sent.
    case unrecognized(Int)

    public static let knownCases: [Self] = [.valid, .invalid]

    public var rawValue: Int {
        switch self {
        case .valid: 0
        case .invalid: 1
        case .unrecognized(let value): value
        }
    }
}
