import LedgerEntries
import LedgerMoney

/// One day's credit of one kind (``CreditKind``: `givenFree`, `sold`, `noMoneyTaken`, `takenBack`, `reinstated`) in a
/// device's section of a v3 summary: how many entries and their credit in micro-credits, positive. With the day rows'
/// charged and given back, they make the account's balance: what is outstanding and what is below zero.
public struct SummaryCredit: Sendable, Equatable, Codable {
    public var day: String
    public var kind: String
    public var count: Int64
    public var amount: Int64

    public init(day: String, kind: String, count: Int64, amount: Int64) {
        self.day = day
        self.kind = kind
        self.count = count
        self.amount = amount
    }

    /// Whether the credit adds to the balance (all but what refunds took back).
    public var isCredit: Bool { kind != CreditKind.takenBack.rawValue }
}
