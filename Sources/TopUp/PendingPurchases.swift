import DurableFiles
import Foundation
import LedgerEntries
import Payments
import StoreWire

/// Purchases the store answered `pending` (Ask to Buy, an interrupted purchase), kept in the data directory as
/// `pending.json` so the credit screen can say what each is waiting for until it is credited. Each purchase asked
/// for is its own line, settled on its own.
public struct PendingPurchases: Codable, Sendable, Equatable {
    public struct Purchase: Codable, Sendable, Equatable {
        public var product: String
        /// When the purchase was asked for (ISO 8601, UTC).
        public var since: String
        /// What the store said it waits for, or nil.
        public var reason: PendingReason?
        /// The store's id for the waiting transaction, when it says (the mock store does; StoreKit does not).
        public var transactionId: String?

        public init(product: String, since: String, reason: PendingReason?, transactionId: String? = nil) {
            self.product = product
            self.since = since
            self.reason = reason
            self.transactionId = transactionId
        }
    }

    public var purchases: [Purchase] = []

    public init(purchases: [Purchase] = []) { self.purchases = purchases }

    static func path(in directory: String) -> String { directory + "/pending.json" }

    /// The pending purchases recorded in `directory`.
    public static func load(from directory: String) -> PendingPurchases {
        // Never through a link: read as every file of the data directory is.
        guard let bytes = try? Files.readAll(path(in: directory)),
            let value = try? JSONDecoder().decode(PendingPurchases.self, from: Data(bytes))
        else { return PendingPurchases() }
        return value
    }

    /// Writes `pending.json` into `directory` atomically, through `fileSystem` (the ledger's, so a fault a test
    /// puts under the ledger reaches this write too).
    public func save(to directory: String, fileSystem: any FileSystem = SystemFileSystem()) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try fileSystem.replaceAtomically(
            PendingPurchases.path(in: directory), with: Array(try encoder.encode(self)) + [0x0A])
    }

    /// How long an Ask to Buy request waits for an answer: the App Store lets it lapse after 24 hours (StoreKit
    /// tells an app neither a decline nor a lapse: the purchase simply never completes).
    public static let askToBuyLapse: Int64 = 24 * 60 * 60 * 1000

    /// Records a new pending purchase of `product`: its own line, even when another of the same product waits (the
    /// store holds each request as its own transaction, and each can be approved). The same transaction told twice
    /// is one line.
    public mutating func add(
        product: String, at time: Timestamp, reason: PendingReason? = nil, transactionID: String? = nil
    ) {
        if let transactionID, purchases.contains(where: { $0.transactionId == transactionID }) { return }
        purchases.append(
            Purchase(product: product, since: time.iso8601, reason: reason, transactionId: transactionID))
    }

    /// Removes the pending purchase each credited entry completes: the one with its transaction id, else the
    /// oldest of its product whose id the store did not say.
    public mutating func settle(credited: [LedgerEntry]) {
        for entry in credited {
            if let reference = entry.reference,
                let index = purchases.firstIndex(where: { $0.transactionId == reference })
            {
                purchases.remove(at: index)
            } else if let index = purchases.firstIndex(where: {
                $0.transactionId == nil && $0.product == entry.product
            }) {
                purchases.remove(at: index)
            }
        }
    }

    /// Whether `purchase`, at `now`, is an Ask to Buy request (or one whose reason the store did not say) that has had
    /// no answer for over a day.
    public static func hasLapsed(_ purchase: Purchase, at now: Timestamp) -> Bool {
        // StoreKit's `.pending` names no reason: a purchase waiting that long is an Ask to Buy request that lapsed.
        guard purchase.reason != .interrupted, let since = Timestamp(iso8601: purchase.since) else { return false }
        return now.milliseconds - since.milliseconds > askToBuyLapse
    }

    /// What the credit screen says about them at `now`, one sentence for each. An Ask to Buy request older than a
    /// day is said to have lapsed (or been declined), not to be waiting still.
    /// `packs` names each purchase's pack ("£5 of credit").
    public func descriptions(at now: Timestamp, packs: PackCatalogue? = nil) -> [String] {
        purchases.map { PendingPurchases.describe($0, at: now, packs: packs) }
    }

    /// What the credit screen says about `purchase` at `now`, its pack named by `packs` when given.
    public static func describe(_ purchase: Purchase, at now: Timestamp, packs: PackCatalogue? = nil) -> String {
        let pack = packs?.name(of: purchase.product) ?? purchase.product
        let when = String(purchase.since.prefix(16)).replacingOccurrences(of: "T", with: " ")
        let which = purchase.transactionId.map { " (transaction \($0))" } ?? ""
        if hasLapsed(purchase, at: now) {
            return "A purchase of \(pack)\(which), asked for on \(when) UTC, had no answer within a day: "
                + "an Ask to Buy request lapses after 24 hours, unless it was declined sooner. Nothing was charged "
                + "and nothing is blocked; top up again to ask again."
        }
        return
            "A purchase of \(pack)\(which), asked for on \(when) UTC, is "
            + "\(waitingFor(purchase.reason)). It is credited as soon as it completes; nothing is blocked meanwhile."
    }

    /// What a pending purchase waits for, in words.
    public static func waitingFor(_ reason: PendingReason?) -> String {
        switch reason {
        case .askToBuy: return "waiting for a parent or guardian to approve it (Ask to Buy)"
        case .interrupted:
            return "waiting for an issue with the purchase to be resolved in the App Store (an interrupted purchase)"
        default:
            // StoreKit's `.pending` says neither: both, in the words the screen uses for each.
            return "waiting for a parent or guardian to approve it (Ask to Buy), or for an issue with the purchase "
                + "to be resolved in the App Store"
        }
    }
}
