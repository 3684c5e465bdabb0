import LedgerEntries
import LedgerMoney

/// Why sums added apart on every core are the definition's (``SummarySums/serial(_:startDays:tax:)``), which adds an
/// account only when, with it, every sum still fits and every line of the P&L and of the money can still be worked
/// out. Added apart, the sums of the whole fitting shows that the sums of every prefix of the accounts fit (they only
/// grow), except a feature's credit used in a period, which may shrink (a decline of an earlier charge); but lines
/// are worked out only for the whole. These bounds, checked after every account in account order, show that every
/// prefix's lines can be worked out too, so that the definition leaves no account out:
///
/// - A feature's line (and the total) has its net, margin and shares within 64 bits when the rows' charged, given
///   back and cost together are at most ``lineLimit``, and their charges and declines together too: a margin of at
///   most that over a net of at least one is a share in basis points within `Int64`.
/// - The money: a feature's credit used in any period is at most ``used``, the sum of every row's
///   |charged − given back|, and a currency's kept proceeds at most ``kept``, the sum of every money row's gross.
///   A feature's proceeds, kept × its used ÷ the period's total used (when that is above zero; nothing is shared
///   otherwise), is then below 2^62 when kept × used < 2^62 × the total, and its margin (less a cost of at most
///   ``lineLimit``) fits too.
///
/// The bounds do not hold only for totals far beyond any real one (about £900 million charged, or a period whose
/// credit used is tiny beside the proceeds and the credit used of its features); then the definition decides.
struct SummaryBounds {
    /// The most the rows' charged, given back and cost, and their charges and declines, may come to.
    static let lineLimit: Int64 = 900_000_000_000_000

    private var lines: Int64 = 0
    private var counts: Int64 = 0
    private var used: Int64 = 0
    private var kept: Int64 = 0
    /// Each period's credit used so far, exactly.
    private var totalUsed: [Int64]

    init(periods: Int) { totalUsed = Array(repeating: 0, count: periods) }

    /// Adds one account's bounds: false when they no longer show that the definition would count it.
    mutating func admit(_ account: AccountBounds) -> Bool {
        guard let lines = Self.sum(lines, account.lines), let counts = Self.sum(counts, account.counts),
            lines <= Self.lineLimit, counts <= Self.lineLimit, let used = Self.sum(used, account.used),
            let kept = Self.sum(kept, account.kept)
        else { return false }
        (self.lines, self.counts, self.used, self.kept) = (lines, counts, used, kept)
        for index in totalUsed.indices {
            guard let total = Self.sum(totalUsed[index], account.totalUsed[index]) else { return false }
            totalUsed[index] = total
            guard total > 0 else { continue }
            // kept × used < 2^62 × total, in 128 bits.
            let product = UInt64(kept).multipliedFullWidth(by: UInt64(used))
            let limit = (high: UInt64(total) >> 2, low: UInt64(total) << 62)
            guard (product.high, product.low) < limit else { return false }
        }
        return true
    }

    private static func sum(_ a: Int64, _ b: Int64) -> Int64? {
        let (total, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : total
    }
}

/// One account's part of ``SummaryBounds``, from all its chosen sections.
struct AccountBounds {
    /// Every row's charged, given back and cost.
    var lines: Int64 = 0
    /// Every row's charges and declines.
    var counts: Int64 = 0
    /// Every row's |charged − given back|, when the account's money counts (else 0: it adds no credit used).
    var used: Int64 = 0
    /// Every money row's gross (at most the proceeds worked out from it), when the account's money counts.
    var kept: Int64 = 0
    /// Each period's credit used (charged − given back of the rows on or after its first day), when the account's
    /// money counts.
    var totalUsed: [Int64]

    /// Throws ``LedgerError/overflow(_:)`` when a bound would not fit, or when a figure is below zero (a verified
    /// summary has none: ``SummaryLimits/isFigure(_:)``), which the bounds do not cover.
    init(_ sections: [SummarySelection.Chosen], startDays: [String]) throws {
        totalUsed = Array(repeating: 0, count: 1 + startDays.count)
        let money = sections.allSatisfy { $0.summary.carriesMoney }
        for item in sections {
            for row in item.section.days {
                lines = try Self.sum(lines, row.charged, row.givenBack, row.cost)
                counts = try Self.sum(counts, row.charges, row.declined)
                guard money else { continue }
                let net = row.charged - row.givenBack  // both 0 or more: no overflow
                used = try Self.sum(used, abs(net))
                for index in totalUsed.indices where index == 0 || row.day >= startDays[index - 1] {
                    totalUsed[index] = try MicroCredits(totalUsed[index]).adding(MicroCredits(net)).rawValue
                }
            }
            for row in item.section.declines { _ = try Self.sum(0, row.count, row.givenBack) }
            for row in item.section.credit ?? [] { _ = try Self.sum(0, row.count, row.amount) }
            for row in item.section.money ?? [] {
                _ = try Self.sum(0, row.count, row.gross, row.tax, row.commission)
                // The proceeds counted are worked out from the gross (``StorefrontTax``): at most the gross.
                if money { kept = try Self.sum(kept, row.gross) }
            }
        }
    }

    /// `first` and `more` added; each of `more` must be 0 or more.
    private static func sum(_ first: Int64, _ more: Int64...) throws -> Int64 {
        var total = first
        for value in more {
            let (sum, overflow) = total.addingReportingOverflow(value)
            guard value >= 0, !overflow else { throw LedgerError.overflow("a bound of \(total) and \(value) more") }
            total = sum
        }
        return total
    }
}
