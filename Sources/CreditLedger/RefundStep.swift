/// One step of a store transaction's refund history after its top-up: step 1 takes the credit back (the store
/// refunded it), step 2 gives it again (the store reversed its refund), step 3 takes it back again, and so on. Odd
/// steps are reversals, even steps re-credits.
///
/// Each step's entry id derives from the store, the transaction and the step number, so a step replayed (the updates
/// feed, the unfinished list, a second device, `credit reconcile --fix`) is the same entry and never counts twice.
/// Steps 1 and 2 keep the ids they had before cycles existed (`reversal-…`, `reinstated-…`), so older ledgers read
/// the same.
public struct RefundStep: Sendable, Equatable, Hashable {
    /// The store's name (`mockstore`), as in the top-up's id.
    public var store: String
    /// The store's transaction id.
    public var reference: String
    /// From 1: odd takes the credit back, even gives it again.
    public var number: Int

    public init(store: String, reference: String, number: Int) {
        precondition(number >= 1, "refund steps are numbered from 1")
        self.store = store
        self.reference = reference
        self.number = number
    }

    /// Whether this step takes the credit back (a reversal), rather than giving it again.
    public var isReversal: Bool { number % 2 == 1 }

    /// The kind of entry the step is written as: a reversal, or a top-up that refers to the reversal it undoes.
    public var kind: EntryKind { isReversal ? .reversal : .topup }

    /// The id of the top-up the steps follow.
    public var topUpID: String { EntryDraft.topUpID(store: store, reference: reference) }

    /// The entry id of this step.
    public var id: String {
        let prefix = isReversal ? RefundStep.reversalPrefix : RefundStep.reinstatedPrefix
        let base = prefix + store + "-" + reference
        return number <= 2 ? base : base + RefundStep.stepInfix + String(number)
    }

    /// What the step refers to: a reversal the top-up, a re-credit the reversal it undoes.
    public var refersTo: String {
        isReversal ? topUpID : RefundStep(store: store, reference: reference, number: number - 1).id
    }

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
        let tail = "-" + reference
        if rest.hasSuffix(tail), rest.count > tail.count {
            self.init(store: String(rest.dropLast(tail.count)), reference: reference, number: isReversal ? 1 : 2)
            return
        }
        // `<store>-<reference>-step-<n>`, n from 3, its parity the prefix's.
        guard let dash = rest.lastIndex(of: "-") else { return nil }
        let digits = rest[rest.index(after: dash)...]
        let head = rest[..<dash]
        let marker = tail + "-step"
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.first != "0",
            let number = Int(digits), number >= 3, number % 2 == (isReversal ? 1 : 0),
            head.hasSuffix(marker), head.count > marker.count
        else { return nil }
        self.init(store: String(head.dropLast(marker.count)), reference: reference, number: number)
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
