import CreditLedger

/// Entries in words a person reads: each act by its name in the price list, with what its quantity counts
/// (`Transcript, 167 minutes`, `Note saved to a vault, 4 files`), never by its key. A feature the price list does
/// not know (another app's, in a merged file) is shown by its key. Subjects and texts are data: escape them
/// (``DisplayText/escaped(_:)``) before a terminal sees them.
public enum EntryWords {
    /// The act of a charge of `feature`, `quantity` times: `Transcript, 167 minutes`, `Debrief`.
    public static func act(feature: String?, quantity: Int64, prices: any PriceList = VoiceDebriefPrices()) -> String {
        guard let feature else { return "A charge" }
        guard let item = prices.item(for: feature) else {
            return quantity == 1 ? feature : "\(feature), \(CountNoun("time", "times")(quantity))"
        }
        guard let counted = item.counted else { return item.name }
        return "\(item.name), \(counted(quantity))"
    }

    /// What `entry` was, in words: `Transcript, 167 minutes (note-1)`, `Declined: Debrief (note-1); the result
    /// was not usable`, `Top-up (simulated, no money taken)`.
    public static func describe(_ entry: LedgerEntry, prices: any PriceList = VoiceDebriefPrices()) -> String {
        switch entry.kind {
        case .opening: return entry.text ?? "Starting credit"
        case .charge: return charge(entry, prices: prices)
        case .refund:
            let reason = entry.reason.flatMap { try? DeclineReason(key: $0, text: entry.text ?? "-").label }
            let said = entry.reason == "other" ? entry.text : reason ?? entry.reason
            return "Declined: " + charge(entry, prices: prices) + (said.map { "; \($0)" } ?? "")
        case .topup: return entry.text ?? "Top-up"
        case .reversal: return entry.text ?? "Top-up refunded by the store"
        }
    }

    /// A charge (or the charge a refund gives back): its act, and its subject in brackets.
    public static func charge(_ entry: LedgerEntry, prices: any PriceList = VoiceDebriefPrices()) -> String {
        act(feature: entry.feature, quantity: entry.quantity, prices: prices)
            + (entry.subject.map { " (\($0))" } ?? "")
    }
}
