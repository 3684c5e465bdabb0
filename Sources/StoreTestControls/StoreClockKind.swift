import StoreWire

/// Which clock a mock store runs on, as `control clock` says it (`kind`).
///
/// Decodes any value: one a later store adds is ``unrecognized(_:)``, kept as sent.
public enum StoreClockKind: WireStringEnum {
    /// The virtual clock (the default): a test moves it and sets its rate. `virtual`.
    case virtual
    /// Apple's sandbox clock: the wall clock, periods as Apple's sandbox renewal rate has them; it cannot be moved.
    /// `sandbox`.
    case sandbox
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.virtual, .sandbox]

    public var rawValue: String {
        switch self {
        case .virtual: "virtual"
        case .sandbox: "sandbox"
        case .unrecognized(let value): value
        }
    }
}
