/// One step of a store transaction's refund history after its top-up: a reversal takes back the share of the credit
/// a refund at the store gave back; a reinstatement gives one reversal's amount back, when the store reversed that
/// refund or replaced it with another.
///
/// Each step's id names what the store did, never a count a device keeps, so every device derives the same entry
/// from the store's history of that transaction whatever it saw when, and a step replayed (the updates feed, the
/// unfinished list, a second device, `credit reconcile --fix`) is the same entry and never counts twice:
///
/// - a reversal names its refund event (``RefundEvent``): `reversal-<store>-<txn>-<revocationDate>`, with
///   `-<milliPercent>` after it for a prorated refund;
/// - a reinstatement names the reversal it gives back: `reinstated-<store>-<txn>-<same suffix>`.
///
/// Ledgers written before steps were keyed by event numbered them instead (``Key/numbered(_:)``):
/// `reversal-<store>-<txn>` (1), `reinstated-<store>-<txn>` (2), then `…-step-3`, `…-step-4`, odd ones reversals.
/// Those are still read (their receipts say which refund they took back), and a numbered reversal is given back by
/// the numbered step after it, as before.
public struct RefundStep: Sendable, Hashable {
    /// What a step's id is derived from.
    public enum Key: Sendable, Hashable {
        /// The store's refund event: a reversal of it, or the reinstatement of that reversal.
        case event(RefundEvent)
        /// A step number from 1, as ledgers written before events named steps have them (odd: reversals).
        case numbered(Int)
    }

    /// The store's name (`mockstore`), as in the top-up's id.
    public var store: String
    /// The store's transaction id.
    public var reference: String
    /// Whether the step takes credit back (a reversal), rather than giving a reversal's amount back.
    public var isReversal: Bool
    /// What its id is derived from.
    public var key: Key

    /// The reversal of the store's refund `event` of transaction `reference`.
    public init(store: String, reference: String, reversalOf event: RefundEvent) {
        self.init(store: store, reference: reference, isReversal: true, key: .event(event))
    }

    /// Step `number` (from 1) as ledgers written before events named steps have it: odd ones reversals.
    public init(store: String, reference: String, number: Int) {
        precondition(number >= 1, "refund steps are numbered from 1")
        self.init(store: store, reference: reference, isReversal: number % 2 == 1, key: .numbered(number))
    }

    private init(store: String, reference: String, isReversal: Bool, key: Key) {
        self.store = store
        self.reference = reference
        self.isReversal = isReversal
        self.key = key
    }

    /// The refund event its id names (nil for a numbered step: its receipt says).
    public var event: RefundEvent? {
        if case .event(let event) = key { return event }
        return nil
    }

    /// Its number, for a step of a ledger written before events named steps.
    public var number: Int? {
        if case .numbered(let number) = key { return number }
        return nil
    }

    /// The kind of entry the step is written as: a reversal, or a top-up that refers to the reversal it undoes.
    public var kind: EntryKind { isReversal ? .reversal : .topup }

    /// The id of the top-up the steps follow.
    public var topUpID: String { EntryDraft.topUpID(store: store, reference: reference) }

    /// The step that gives this reversal back (nil for a step that is not a reversal).
    public var reinstatement: RefundStep? {
        guard isReversal else { return nil }
        switch key {
        case .event: return RefundStep(store: store, reference: reference, isReversal: false, key: key)
        case .numbered(let number): return RefundStep(store: store, reference: reference, number: number + 1)
        }
    }

    /// The reversal this step gives back (nil for a reversal).
    public var reversal: RefundStep? {
        guard !isReversal else { return nil }
        switch key {
        case .event: return RefundStep(store: store, reference: reference, isReversal: true, key: key)
        case .numbered(let number): return RefundStep(store: store, reference: reference, number: number - 1)
        }
    }

    /// The entry id of this step.
    public var id: String {
        let base = (isReversal ? RefundStep.reversalPrefix : RefundStep.reinstatedPrefix) + store + "-" + reference
        switch key {
        case .event(let event): return base + "-" + event.idSuffix
        case .numbered(let number): return number <= 2 ? base : base + RefundStep.stepInfix + String(number)
        }
    }

    /// What the step refers to: a reversal the top-up, a reinstatement the reversal it gives back.
    public var refersTo: String { reversal?.id ?? topUpID }

    /// The step `entry` is, read from its id and reference; nil for an entry that is not a refund step.
    public init?(entry: LedgerEntry) {
        guard let reference = entry.reference, !reference.isEmpty else { return nil }
        let id = entry.id
        let isReversal: Bool
        let rest: Substring
        if id.hasPrefix(RefundStep.reversalPrefix) {
            isReversal = true
            rest = id.dropFirst(RefundStep.reversalPrefix.count)
        } else if id.hasPrefix(RefundStep.reinstatedPrefix) {
            isReversal = false
            rest = id.dropFirst(RefundStep.reinstatedPrefix.count)
        } else {
            return nil
        }
        guard let (store, key) = RefundStep.parse(rest, reference: reference, isReversal: isReversal) else {
            return nil
        }
        self.init(store: store, reference: reference, isReversal: isReversal, key: key)
    }

    /// `<store>-<reference>` and what follows, read as a key: an event's suffix first (`-<date>[-<share>]`), then
    /// the numbered forms (nothing, or `-step-<n>` with n from 3 of the prefix's parity).
    private static func parse(_ rest: Substring, reference: String, isReversal: Bool) -> (String, Key)? {
        let tail = "-" + reference
        let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
        for count in 1...2 where parts.count > count {
            let start = parts[parts.count - count].startIndex
            let head = rest[..<rest.index(before: start)]
            if head.hasSuffix(tail), head.count > tail.count, let event = RefundEvent(idSuffix: rest[start...]) {
                return (String(head.dropLast(tail.count)), .event(event))
            }
        }
        if rest.hasSuffix(tail), rest.count > tail.count {
            return (String(rest.dropLast(tail.count)), .numbered(isReversal ? 1 : 2))
        }
        guard let dash = rest.lastIndex(of: "-") else { return nil }
        let digits = rest[rest.index(after: dash)...]
        let head = rest[..<dash]
        let stepMarker = tail + "-step"
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.first != "0",
            digits.count <= 18, let number = Int(digits), number >= 3, number % 2 == (isReversal ? 1 : 0),
            head.hasSuffix(stepMarker), head.count > stepMarker.count
        else { return nil }
        return (String(head.dropLast(stepMarker.count)), .numbered(number))
    }

    static let reversalPrefix = "reversal-"
    static let reinstatedPrefix = "reinstated-"
    static let stepInfix = "-step-"
}

extension RefundStep {
    /// The share of `bought` a refund of `milliPercent` (Apple's milliunits: 50000 is 50%) takes back, rounded down
    /// (toward the user) and never more than `bought`.
    public static func share(of bought: MicroCredits, milliPercent: Int) -> MicroCredits {
        let clamped = Int64(min(max(milliPercent, 0), 100_000))
        guard bought.rawValue > 0 else { return .zero }
        // bought × clamped / 100000 without overflow: the full-width product, then one division (rounds down for
        // non-negative values).
        let product = bought.rawValue.multipliedFullWidth(by: clamped)
        let (quotient, _) = Int64(100_000).dividingFullWidth((high: product.high, low: product.low))
        return MicroCredits(min(quotient, bought.rawValue))
    }
}
