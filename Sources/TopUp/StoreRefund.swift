import LedgerEntries
import Payments
import StoreWire

/// A store's refund of a transaction, as its signed transaction says: when, and how much of it, in Apple's
/// milliunits.
public struct StoreRefund: Sendable, Equatable {
    /// `revocationDate`: milliseconds since 1970.
    public var date: Int64
    /// 100000 for a full refund; `revocationPercentage` for a prorated one.
    public var milliPercent: Int
    /// `revocationReason`, if any.
    public var reason: RevocationReason?

    public init(date: Int64, milliPercent: Int, reason: RevocationReason? = nil) {
        self.date = date
        self.milliPercent = milliPercent
        self.reason = reason
    }

    /// The refund `transaction` carries (nil when it is not refunded), or why it cannot be read.
    public init?(_ transaction: VerifiedTransaction) throws(RefusedTransaction) {
        guard let date = transaction.revocationDate else { return nil }
        self.date = date
        reason = transaction.revocationReason
        switch transaction.revocationType {
        case .refundProrated?:
            guard let percentage = transaction.payload.revocationPercentage, (0...100_000).contains(percentage) else {
                throw RefusedTransaction(
                    transactionID: transaction.transactionID,
                    reason: "it is a prorated refund without a revocationPercentage from 0 to 100000")
            }
            milliPercent = percentage
        default:
            milliPercent = 100_000
        }
    }

    /// The store's refund event this is: what its reversal's id names.
    public var event: RefundEvent { RefundEvent(date: date, milliPercent: milliPercent) }

    /// Whether it is the whole purchase.
    public var isFull: Bool { milliPercent >= 100_000 }

    /// The share as people say it: `50%`, `33.333%`.
    public var percentText: String {
        let whole = milliPercent / 1000
        let fraction = milliPercent % 1000
        guard fraction != 0 else { return "\(whole)%" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)%"
    }
}
