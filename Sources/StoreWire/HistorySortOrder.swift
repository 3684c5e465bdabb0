/// The order of a Get Transaction History answer, by the date of last change (`sort`): Apple's
/// `TransactionHistoryRequest.Order`.
///
/// Decodes any value: one the store cannot read is ``unrecognized(_:)``, kept as sent.
public enum HistorySortOrder: WireStringEnum {
    /// `ASCENDING`.
    case ascending
    /// `DESCENDING`.
    case descending
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.ascending, .descending]

    public var rawValue: String {
        switch self {
        case .ascending: "ASCENDING"
        case .descending: "DESCENDING"
        case .unrecognized(let value): value
        }
    }
}
