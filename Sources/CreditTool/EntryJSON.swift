import CreditLedger

/// A ledger entry for scripts: every field, amounts in micro-credits, the optional ones only when set; and what a
/// command adds about it (`charged`, a top-up's `result` and `finished`).
struct EntryJSON: Encodable {
    var id: String
    var device: String
    var sequence: Int64
    var time: String
    var kind: String
    var quantity: Int64
    var amount: Int64
    var formattedAmount: String
    var balanceAfter: Int64
    var feature: String?
    var subject: String?
    var refersTo: String?
    var reason: String?
    var text: String?
    var reference: String?
    var product: String?
    var receipt: String?
    /// `credit charge`: it was charged.
    var charged: Bool?
    /// `credit topup`: `credited` or `alreadyCredited`.
    var result: String?
    /// `credit topup`: whether the store was told it was delivered, and if not, why.
    var finished: Bool?
    var finishProblem: String?

    /// `entry`, with `balanceAfter` when the row shows another (the account's, not the device's).
    init(_ entry: LedgerEntry, balanceAfter: MicroCredits? = nil) {
        id = entry.id
        device = entry.device
        sequence = entry.sequence
        time = entry.time.iso8601
        kind = entry.kind.rawValue
        quantity = entry.quantity
        amount = entry.amount.rawValue
        formattedAmount = entry.amount.formatted
        self.balanceAfter = (balanceAfter ?? entry.balanceAfter).rawValue
        feature = entry.feature
        subject = entry.subject
        refersTo = entry.refersTo
        reason = entry.reason
        text = entry.text
        reference = entry.reference
        product = entry.product
        receipt = entry.receipt
    }
}
