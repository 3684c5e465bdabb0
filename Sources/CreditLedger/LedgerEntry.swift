/// One line of a ledger: what was done, when, for which subject, how much of it, what it cost, and the balance
/// after it on the device that wrote it. Entries are never changed or removed.
public struct LedgerEntry: Sendable, Equatable {
    /// The idempotency key: a charge's is random, a refund's derives from its charge, a top-up's from its payment.
    public var id: String
    /// The device that wrote the entry.
    public var device: String
    /// Position in the device's file, from 1, contiguous.
    public var sequence: Int64
    /// When it was written (UTC).
    public var time: Timestamp
    public var kind: EntryKind
    /// The feature key of a charge or refund (a fixed string, never display text).
    public var feature: String?
    /// What it was for: a note, a vault.
    public var subject: String?
    /// How much of it (minutes, files, ...).
    public var quantity: Int64
    /// Signed: charges and reversals are negative.
    public var amount: MicroCredits
    /// The balance the writing device saw after this entry.
    public var balanceAfter: MicroCredits
    /// The charge a refund gives back, or the top-up a reversal takes back.
    public var refersTo: String?
    /// Why a charge was declined (`not-usable`, `not-needed`, `test`, `other`).
    public var reason: String?
    /// Free text: the user's words for a decline, or the description of a top-up.
    public var text: String?
    /// The payment reference (the store's transaction id) of a top-up or reversal.
    public var reference: String?
    /// The product bought.
    public var product: String?
    /// The store's signed receipt (a compact JWS) backing a top-up.
    public var receipt: String?
    /// Hex MAC of the previous entry of the same device (signed ledgers).
    public var prev: String?
    /// Hex HMAC-SHA256 over the exact bytes of this line before the `mac` field (signed ledgers).
    public var mac: String?

    public init(
        id: String, device: String, sequence: Int64, time: Timestamp, kind: EntryKind, feature: String? = nil,
        subject: String? = nil, quantity: Int64 = 1, amount: MicroCredits, balanceAfter: MicroCredits,
        refersTo: String? = nil, reason: String? = nil, text: String? = nil, reference: String? = nil,
        product: String? = nil, receipt: String? = nil, prev: String? = nil, mac: String? = nil
    ) {
        self.id = id
        self.device = device
        self.sequence = sequence
        self.time = time
        self.kind = kind
        self.feature = feature
        self.subject = subject
        self.quantity = quantity
        self.amount = amount
        self.balanceAfter = balanceAfter
        self.refersTo = refersTo
        self.reason = reason
        self.text = text
        self.reference = reference
        self.product = product
        self.receipt = receipt
        self.prev = prev
        self.mac = mac
    }

    /// Whether two entries with the same id say the same thing. Device-local fields (device, sequence, time,
    /// balance after, chain) and wording (reason, text, receipt bytes, which a store may re-sign) are not compared.
    public func hasSameContent(as other: LedgerEntry) -> Bool {
        id == other.id && kind == other.kind && feature == other.feature && subject == other.subject
            && quantity == other.quantity && amount == other.amount && refersTo == other.refersTo
            && reference == other.reference && product == other.product
    }

    /// A short account of the content compared by ``hasSameContent(as:)``, for conflict messages.
    public var contentSummary: String {
        var parts = ["\(kind.rawValue) \(amount.formatted)"]
        if let feature { parts.append("feature \(feature)") }
        if let subject { parts.append("subject \(subject)") }
        if quantity != 1 { parts.append("quantity \(quantity)") }
        if let refersTo { parts.append("for \(refersTo)") }
        if let reference { parts.append("reference \(reference)") }
        if let product { parts.append("product \(product)") }
        return parts.joined(separator: ", ")
    }
}

/// What a caller asks to append: the ledger fills in device, sequence, time, balance and chain.
public struct EntryDraft: Sendable, Equatable {
    public var id: String
    public var kind: EntryKind
    public var feature: String?
    public var subject: String?
    public var quantity: Int64
    public var amount: MicroCredits
    public var refersTo: String?
    public var reason: String?
    public var text: String?
    public var reference: String?
    public var product: String?
    public var receipt: String?

    public init(
        id: String, kind: EntryKind, feature: String? = nil, subject: String? = nil, quantity: Int64 = 1,
        amount: MicroCredits, refersTo: String? = nil, reason: String? = nil, text: String? = nil,
        reference: String? = nil, product: String? = nil, receipt: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.feature = feature
        self.subject = subject
        self.quantity = quantity
        self.amount = amount
        self.refersTo = refersTo
        self.reason = reason
        self.text = text
        self.reference = reference
        self.product = product
        self.receipt = receipt
    }

    func entry(device: String, sequence: Int64, time: Timestamp, balanceAfter: MicroCredits) -> LedgerEntry {
        LedgerEntry(
            id: id, device: device, sequence: sequence, time: time, kind: kind, feature: feature, subject: subject,
            quantity: quantity, amount: amount, balanceAfter: balanceAfter, refersTo: refersTo, reason: reason,
            text: text, reference: reference, product: product, receipt: receipt)
    }
}

extension EntryDraft {
    /// The id of the refund that gives back charge `chargeID`: derived, so a charge is refunded at most once.
    public static func refundID(forCharge chargeID: String) -> String { "refund-" + chargeID }
    /// The id of a top-up paid with `reference` (the store's transaction id) through `store`.
    public static func topUpID(store: String, reference: String) -> String { "topup-\(store)-\(reference)" }
    /// The id of the reversal taking back the top-up paid with `reference`.
    public static func reversalID(store: String, reference: String) -> String { "reversal-\(store)-\(reference)" }
    /// The id of the opening credit: one per user, so merged devices count it once.
    public static let openingID = "opening"
}
