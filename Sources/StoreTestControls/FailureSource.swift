import StoreWire

/// Where a simulated StoreKit failure was set (`source`).
///
/// Decodes any value: one added later is ``unrecognized(_:)``, kept as sent.
public enum FailureSource: WireStringEnum {
    /// A test control, at run time. `control`.
    case control
    /// The `.storekit` file's `_storeKitErrors` or `_failTransactionsEnabled`. `catalogue`.
    case catalogue
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.control, .catalogue]

    public var rawValue: String {
        switch self {
        case .control: "control"
        case .catalogue: "catalogue"
        case .unrecognized(let value): value
        }
    }
}
