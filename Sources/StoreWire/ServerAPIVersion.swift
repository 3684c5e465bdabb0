/// The version of an App Store Server API endpoint that has two (`/inApps/v1/…`, `/inApps/v2/…`): Get Transaction
/// History and Send Consumption Information, whose versions answer or check differently.
///
/// Decodes any value: one added later is ``unrecognized(_:)``, kept as sent.
public enum ServerAPIVersion: WireStringEnum {
    /// `v1`.
    case v1
    /// `v2`.
    case v2
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.v1, .v2]

    public var rawValue: String {
        switch self {
        case .v1: "v1"
        case .v2: "v2"
        case .unrecognized(let value): value
        }
    }
}
