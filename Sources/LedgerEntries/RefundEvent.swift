/// One refund of a store transaction, as the store's signed transaction names it: when it was made
/// (`revocationDate`) and how much of the purchase it gave back (`revocationPercentage`, in Apple's milliunits).
///
/// A refund reversed and made again is another event (another `revocationDate`), and so is a refund whose share the
/// store changed. Events are ordered as the store made them: by date, then share.
public struct RefundEvent: Sendable, Hashable, Comparable {
    /// `revocationDate`: milliseconds since 1970.
    public var date: Int64
    /// The share refunded in milliunits: 100000 for the whole purchase, less for a prorated refund.
    public var milliPercent: Int

    /// The refund made at `date` of `milliPercent` (clamped to 0...100000) of the purchase.
    public init(date: Int64, milliPercent: Int = 100_000) {
        self.date = date
        self.milliPercent = min(max(milliPercent, 0), 100_000)
    }

    /// Whether it refunded the whole purchase.
    public var isFull: Bool { milliPercent >= 100_000 }

    /// What a step's id names the event by: `<date>` for a full refund, `<date>-<milliPercent>` for a part.
    public var idSuffix: String { isFull ? String(date) : String(date) + "-" + String(milliPercent) }

    /// The event `suffix` names (as ``idSuffix`` writes it, and only so), or nil.
    public init?(idSuffix suffix: Substring) {
        let parts = suffix.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy(RefundEvent.isCanonicalNumber),
            let date = Int64(parts[0])
        else { return nil }
        var milliPercent = 100_000
        if parts.count == 2 {
            // A part of the purchase, never all of it: a full refund has no share in its id.
            guard let share = Int(parts[1]), share < 100_000 else { return nil }
            milliPercent = share
        }
        self.init(date: date, milliPercent: milliPercent)
    }

    public static func < (left: RefundEvent, right: RefundEvent) -> Bool {
        (left.date, left.milliPercent) < (right.date, right.milliPercent)
    }

    /// Digits only, at most 18 of them, no leading zero (but `0` itself): one spelling per number, so one id per
    /// event.
    private static func isCanonicalNumber(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 18 && text.allSatisfy { $0.isASCII && $0.isNumber }
            && (text.count == 1 || text.first != "0")
    }
}
