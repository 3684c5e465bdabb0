/// One line of a ledger: what was done, when, for which subject, how much of it, what it cost, and the balance
/// after it on the device that wrote it. Entries are never changed or removed.
public struct LedgerEntry: Sendable, Equatable {
    // The stored fields are declared in this order on purpose: what the sums over every entry read (kind, time,
    // amount, feature) shares the first cache line of each entry, and the two bytes of `kind` and `chainBits` fill
    // the seven the id leaves after its 17 (an entry of 184 bytes, not 192).
    /// When it was written (UTC).
    public var time: Timestamp
    /// Signed: charges and reversals are negative.
    public var amount: MicroCredits
    /// The feature key of a charge or refund (a fixed string, never display text).
    public var feature: String?
    /// The id as held (a lowercase UUID in 16 bytes, any other id as its String).
    private var idStorage: EntryIDStorage
    public var kind: EntryKind
    @usableFromInline var chainBits: UInt8
    /// The device that wrote the entry.
    public var device: String
    /// Position in the device's file, from 1, contiguous.
    public var sequence: Int64
    /// How much of it (minutes, files, ...).
    public var quantity: Int64
    /// The balance the writing device saw after this entry.
    public var balanceAfter: MicroCredits
    /// What it was for: a note, a vault.
    public var subject: String?
    /// The fields most entries do not have, in one shared box (nil when none is set): a charge is a few words
    /// and two strings rather than a dozen optional strings to copy, retain and release.
    @usableFromInline var details: EntryDetails?
    /// `prev` and `mac` as 32 bytes each (what the ledger writes: 64 lowercase hex digits), present when the
    /// matching bit of `chainBits` is set; any other text is kept in `details`.
    @usableFromInline var prevDigest: ChainDigest
    @usableFromInline var macDigest: ChainDigest

    @usableFromInline static let hasPrevDigest: UInt8 = 1
    @usableFromInline static let hasMACDigest: UInt8 = 2

    /// The idempotency key: a charge's is random, a refund's derives from its charge, a top-up's from its payment.
    public var id: String {
        get { idStorage.string }
        set { idStorage = EntryIDStorage(newValue) }
    }

    /// ``EntryIDIndex/hash(_:)`` of the id, read where it is held.
    @inline(__always)
    package var idHash: UInt64 { idStorage.withBytes { EntryIDIndex.hash($0) } }

    /// ``EntryIDIndex/stableHash(_:)`` of the id, read where it is held.
    package var stableIDHash: UInt64 { idStorage.withBytes { EntryIDIndex.stableHash($0) } }

    /// Appends the id as a JSON string (a packed UUID straight from its bytes, which need no escape).
    package func appendID(to out: inout [UInt8]) {
        guard case .text(let text) = idStorage else {
            out.append(UInt8(ascii: "\""))
            idStorage.withBytes { out.append(contentsOf: $0) }
            out.append(UInt8(ascii: "\""))
            return
        }
        EntryCodec.appendString(text, to: &out)
    }

    /// Whether the id is `id`.
    package func hasID(_ id: String) -> Bool { idStorage.matches(id) }

    /// Whether `other` has the same id.
    package func hasSameID(as other: LedgerEntry) -> Bool { idStorage == other.idStorage }

    /// The charge a refund gives back, or the top-up a reversal takes back.
    public var refersTo: String? {
        get { details?.refersTo }
        set { updateDetails { $0.refersTo = newValue } }
    }
    /// Why a charge was declined (`not-usable`, `not-needed`, `test`, `other`).
    public var reason: String? {
        get { details?.reason }
        set { updateDetails { $0.reason = newValue } }
    }
    /// Free text: the user's words for a decline, or the description of a top-up.
    public var text: String? {
        get { details?.text }
        set { updateDetails { $0.text = newValue } }
    }
    /// The payment reference (the store's transaction id) of a top-up or reversal.
    public var reference: String? {
        get { details?.reference }
        set { updateDetails { $0.reference = newValue } }
    }
    /// The product bought.
    public var product: String? {
        get { details?.product }
        set { updateDetails { $0.product = newValue } }
    }
    /// The store's signed receipt (a compact JWS) backing a top-up.
    public var receipt: String? {
        get { details?.receipt }
        set { updateDetails { $0.receipt = newValue } }
    }
    /// Hex MAC of the previous entry of the same device (signed ledgers).
    public var prev: String? {
        get { prevField?.text }
        set { prevField = newValue.map(ChainField.init) }
    }
    /// Hex HMAC-SHA256 over the exact bytes of this line before the `mac` field (signed ledgers).
    public var mac: String? {
        get { macField?.text }
        set { macField = newValue.map(ChainField.init) }
    }

    /// `prev` as held. (This getter and ``macField``'s are inlinable: the verifier, another target, reads both for
    /// every line, and a call would copy the entry each time.)
    package var prevField: ChainField? {
        @inlinable get {
            if chainBits & LedgerEntry.hasPrevDigest != 0 { return .digest(prevDigest) }
            return details?.prevText.map(ChainField.text)
        }
        set { setChainField(newValue, bit: LedgerEntry.hasPrevDigest, digest: \.prevDigest, text: \.prevText) }
    }

    /// `prev` when it is a digest (what the ledger writes), read without making a field: for loops over every line.
    package var prevDigestHeld: ChainDigest? {
        @inlinable get { chainBits & LedgerEntry.hasPrevDigest != 0 ? prevDigest : nil }
    }

    /// `mac` when it is a digest (what the ledger writes), read without making a field.
    package var macDigestHeld: ChainDigest? {
        @inlinable get { chainBits & LedgerEntry.hasMACDigest != 0 ? macDigest : nil }
    }

    /// `mac` as held.
    package var macField: ChainField? {
        @inlinable get {
            if chainBits & LedgerEntry.hasMACDigest != 0 { return .digest(macDigest) }
            return details?.macText.map(ChainField.text)
        }
        set { setChainField(newValue, bit: LedgerEntry.hasMACDigest, digest: \.macDigest, text: \.macText) }
    }

    /// Holds `prev` or `mac` (named by its bit in `chainBits`, its digest field and its text in the details): 32
    /// bytes with the bit set when the value is hex digits, else its text in the details.
    private mutating func setChainField(
        _ value: ChainField?, bit: UInt8, digest: WritableKeyPath<LedgerEntry, ChainDigest>,
        text: WritableKeyPath<EntryDetails.Fields, String?>
    ) {
        let hadText = details?.fields[keyPath: text] != nil
        switch value {
        case .digest(let held)?:
            self[keyPath: digest] = held
            chainBits |= bit
            if hadText { updateDetails { $0[keyPath: text] = nil } }
        case .text(let held)?:
            self[keyPath: digest] = .zero
            chainBits &= ~bit
            updateDetails { $0[keyPath: text] = held }
        case nil:
            self[keyPath: digest] = .zero
            chainBits &= ~bit
            if hadText { updateDetails { $0[keyPath: text] = nil } }
        }
    }

    public init(
        id: String, device: String, sequence: Int64, time: Timestamp, kind: EntryKind, feature: String? = nil,
        subject: String? = nil, quantity: Int64 = 1, amount: MicroCredits, balanceAfter: MicroCredits,
        refersTo: String? = nil, reason: String? = nil, text: String? = nil, reference: String? = nil,
        product: String? = nil, receipt: String? = nil, prev: String? = nil, mac: String? = nil
    ) {
        self.init(
            id: EntryIDStorage(id), device: device, sequence: sequence, time: time, kind: kind, feature: feature,
            subject: subject,
            quantity: quantity, amount: amount, balanceAfter: balanceAfter,
            details: EntryDetails.make(
                refersTo: refersTo, reason: reason, text: text, reference: reference, product: product, receipt: receipt
            ))
        self.prev = prev
        self.mac = mac
    }

    /// Every stored field at once (the readers' way in); `details` must be nil when it would hold nothing (see
    /// ``EntryDetails/make(refersTo:reason:text:reference:product:receipt:prevText:macText:)``).
    @inline(__always)
    init(
        id: EntryIDStorage, device: String, sequence: Int64, time: Timestamp, kind: EntryKind, feature: String?,
        subject: String?, quantity: Int64, amount: MicroCredits, balanceAfter: MicroCredits, details: EntryDetails?,
        prevDigest: ChainDigest? = nil, macDigest: ChainDigest? = nil
    ) {
        self.time = time
        self.amount = amount
        self.feature = feature
        self.idStorage = id
        self.kind = kind
        self.chainBits =
            (prevDigest == nil ? 0 : LedgerEntry.hasPrevDigest) | (macDigest == nil ? 0 : LedgerEntry.hasMACDigest)
        self.device = device
        self.sequence = sequence
        self.quantity = quantity
        self.balanceAfter = balanceAfter
        self.subject = subject
        self.details = details
        self.prevDigest = prevDigest ?? .zero
        self.macDigest = macDigest ?? .zero
    }

    /// ``init(id:device:sequence:time:kind:feature:subject:quantity:amount:balanceAfter:details:prevDigest:macDigest:)``
    /// made in `slot` (uninitialised memory). The values are taken, not copied (`consuming`): the entry is made from
    /// them and moved into its slot, so no string is retained and released again on the way.
    @inline(__always)
    static func initialize(
        _ slot: UnsafeMutablePointer<LedgerEntry>, id: consuming EntryIDStorage, device: consuming String,
        sequence: Int64, time: Timestamp, kind: EntryKind, feature: consuming String?, subject: consuming String?,
        quantity: Int64, amount: MicroCredits, balanceAfter: MicroCredits, details: consuming EntryDetails?,
        prevDigest: ChainDigest?, macDigest: ChainDigest?
    ) {
        slot.initialize(
            to: LedgerEntry(
                id: id, device: device, sequence: sequence, time: time, kind: kind, feature: feature,
                subject: subject, quantity: quantity, amount: amount, balanceAfter: balanceAfter, details: details,
                prevDigest: prevDigest, macDigest: macDigest))
    }

    /// Changes the details (a new box: boxes are shared between copies and never changed).
    private mutating func updateDetails(_ change: (inout EntryDetails.Fields) -> Void) {
        var fields = details?.fields ?? EntryDetails.Fields()
        change(&fields)
        let box = EntryDetails(fields)
        details = box.isEmpty ? nil : box
    }

    /// Whether two entries with the same id say the same thing. Device-local fields (device, sequence, time,
    /// balance after, chain) and wording (reason, text, receipt bytes, which a store may re-sign) are not compared.
    public func hasSameContent(as other: LedgerEntry) -> Bool {
        hasSameID(as: other) && kind == other.kind && feature == other.feature && subject == other.subject
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
    /// The id of the first reversal of the top-up paid with `reference` as ledgers written before refund steps were
    /// named by the store's refund event have it (``RefundStep`` names them now).
    public static func reversalID(store: String, reference: String) -> String { "reversal-\(store)-\(reference)" }
    /// The id of the opening credit: one per user, so merged devices count it once.
    public static let openingID = "opening"
}

/// The fields most entries do not have. Immutable and shared between copies of an entry; compared by value.
@usableFromInline final class EntryDetails: Sendable, Equatable {
    struct Fields: Equatable {
        var refersTo: String?
        var reason: String?
        var text: String?
        var reference: String?
        var product: String?
        var receipt: String?
        /// A `prev` or `mac` that is not 64 lowercase hex digits, as read.
        var prevText: String?
        var macText: String?
    }

    let fields: Fields

    init(_ fields: Fields) { self.fields = fields }

    /// A box for these fields, or nil when none is set.
    static func make(
        refersTo: String?, reason: String?, text: String?, reference: String?, product: String?, receipt: String?,
        prevText: String? = nil, macText: String? = nil
    ) -> EntryDetails? {
        let fields = Fields(
            refersTo: refersTo, reason: reason, text: text, reference: reference, product: product, receipt: receipt,
            prevText: prevText, macText: macText)
        return fields == Fields() ? nil : EntryDetails(fields)
    }

    var refersTo: String? { fields.refersTo }
    var reason: String? { fields.reason }
    var text: String? { fields.text }
    var reference: String? { fields.reference }
    var product: String? { fields.product }
    var receipt: String? { fields.receipt }
    @usableFromInline var prevText: String? { fields.prevText }
    @usableFromInline var macText: String? { fields.macText }

    var isEmpty: Bool { fields == Fields() }

    @usableFromInline static func == (a: EntryDetails, b: EntryDetails) -> Bool { a === b || a.fields == b.fields }
}
