/// What an entry records.
public enum EntryKind: String, Sendable, CaseIterable, Codable {
    /// The starting credit of a new ledger.
    case opening
    /// An act charged (a negative amount).
    case charge
    /// A declined charge given back (positive), referring to the charge.
    case refund
    /// Credit bought (positive), with the payment reference and the store's signed receipt.
    case topup
    /// A top-up the store refunded, taken back (negative).
    case reversal
}

extension EntryKind {
    /// The kind in words with its article, for messages: `an opening`, `a charge`, `a top-up`.
    public var withArticle: String {
        switch self {
        case .opening: return "an opening"
        case .charge: return "a charge"
        case .refund: return "a refund"
        case .topup: return "a top-up"
        case .reversal: return "a reversal"
        }
    }
}
