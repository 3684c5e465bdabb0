import LedgerEntries

/// The kinds of credit the money section counts, as summaries name their rows.
public enum CreditKind: String, Sendable, CaseIterable, Codable {
    /// The openings (credit given free); credit bought with money; simulated top-ups (no money taken); taken back
    /// by refunds; given back when a refund was reversed.
    case givenFree, sold, noMoneyTaken, takenBack, reinstated
}
