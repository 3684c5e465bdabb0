import CreditLedger
import DurableFiles
import Foundation
import Payments

/// Purchases the store answered `pending` (Ask to Buy, an interrupted purchase), kept in the data directory as
/// `pending.json` so the credit screen can say what each is waiting for until it is credited.
public struct PendingPurchases: Codable, Sendable, Equatable {
    public struct Purchase: Codable, Sendable, Equatable {
        public var product: String
        /// When the purchase was asked for (ISO 8601, UTC).
        public var since: String
        /// What the store said it waits for, or nil.
        public var reason: PendingReason?
    }

    public var purchases: [Purchase] = []

    public init(purchases: [Purchase] = []) { self.purchases = purchases }

    static func path(in directory: String) -> String { directory + "/pending.json" }

    /// The pending purchases recorded in `directory`.
    public static func load(from directory: String) -> PendingPurchases {
        guard let data = FileManager.default.contents(atPath: path(in: directory)),
            let value = try? JSONDecoder().decode(PendingPurchases.self, from: data)
        else { return PendingPurchases() }
        return value
    }

    public func save(to directory: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try Files.replaceAtomically(
            PendingPurchases.path(in: directory), with: Array(try encoder.encode(self)) + [0x0A])
    }

    /// How long an Ask to Buy request waits for an answer: the App Store lets it lapse after 24 hours, and asking
    /// again makes it one request with its 24 hours started again (StoreKit tells an app neither a decline nor a
    /// lapse: the purchase simply never completes).
    public static let askToBuyLapse: Int64 = 24 * 60 * 60 * 1000

    /// Records a new pending purchase of `product`. Asking again for a product already waiting for Ask to Buy is
    /// the same request to the parent, renewed, so it replaces the earlier one.
    public mutating func add(product: String, at time: Timestamp, reason: PendingReason? = nil) {
        if reason == .askToBuy {
            purchases.removeAll { $0.product == product && $0.reason == .askToBuy }
        }
        purchases.append(Purchase(product: product, since: time.iso8601, reason: reason))
    }

    /// Removes the oldest pending purchase of each product credited.
    public mutating func settle(credited: [LedgerEntry]) {
        for entry in credited {
            if let index = purchases.firstIndex(where: { $0.product == entry.product }) { purchases.remove(at: index) }
        }
    }

    /// What the credit screen says about them at `now`. An Ask to Buy request older than a day is said to have
    /// lapsed (or been declined), not to be waiting still.
    public func descriptions(at now: Timestamp) -> [String] {
        purchases.map {
            let when = String($0.since.prefix(16)).replacingOccurrences(of: "T", with: " ")
            if $0.reason == .askToBuy, let since = Timestamp(iso8601: $0.since),
                now.milliseconds - since.milliseconds > PendingPurchases.askToBuyLapse
            {
                return "A purchase of \($0.product), asked for on \(when) UTC, had no answer within a day: an Ask to "
                    + "Buy request lapses after 24 hours, unless it was declined sooner. Nothing was charged and "
                    + "nothing is blocked; top up again to ask again."
            }
            return
                "A purchase of \($0.product), asked for on \(when) UTC, is \(PendingPurchases.waitingFor($0.reason)). "
                + "It is credited as soon as it completes; nothing is blocked meanwhile."
        }
    }

    /// What a pending purchase waits for, in words.
    public static func waitingFor(_ reason: PendingReason?) -> String {
        switch reason {
        case .askToBuy: return "waiting for a parent or guardian to approve it (Ask to Buy)"
        case .interrupted:
            return "waiting for an issue with the purchase to be resolved in the App Store (an interrupted purchase)"
        default:
            return "waiting for the store: for approval (Ask to Buy) or for an issue with the purchase to be resolved"
        }
    }
}
