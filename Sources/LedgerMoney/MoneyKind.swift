import LedgerEntries

/// The kinds of money rows: a sale, a refund step taking a share back, a reinstatement giving one back.
public enum MoneyKind: String, Sendable, CaseIterable, Codable {
    case sale, refund, reinstatement
}
