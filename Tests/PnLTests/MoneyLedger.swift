import CreditLedger
import Foundation
import Signing

/// A ledger whose money section was worked out by hand (see MoneyTests): a £5.00 top-up in GBR, half of it refunded,
/// a $4.99 top-up in the USA (a storefront whose tax the app's table does not have), a simulated top-up, and a
/// transcript and a debrief charged. Receipts are signed transactions' payloads under a header; the money section
/// reads them as the ledger holds them (their signatures were checked when they were written).
enum MoneyLedger {
    static let asOf = Timestamp(iso8601: "2026-11-29T12:00:00.000Z")!

    /// A compact JWS carrying a signed transaction's money fields (and a refund, when given).
    static func receipt(
        price: Int64, currency: String, storefront: String, revocationPercentage: Int? = nil
    ) -> String {
        var payload: [String: Any] = [
            "transactionId": "2000000001", "price": price, "currency": currency, "storefront": storefront,
            "signedDate": 1_795_900_000_000,
        ]
        if let revocationPercentage {
            payload["revocationDate"] = 1_795_900_000_000
            payload["revocationType"] = "REFUND_PRORATED"
            payload["revocationPercentage"] = revocationPercentage
        }
        let header = Base64URL.encode(Array(#"{"alg":"ES256"}"#.utf8))
        let body = Base64URL.encode(Array(try! JSONSerialization.data(withJSONObject: payload, options: .sortedKeys)))
        return header + "." + body + "." + Base64URL.encode([1, 2, 3])
    }

    static func entry(
        _ sequence: Int64, _ id: String, _ day: String, _ kind: EntryKind, _ amount: Int64, feature: String? = nil,
        quantity: Int64 = 1, refersTo: String? = nil, receipt: String? = nil
    ) -> LedgerEntry {
        LedgerEntry(
            id: id, device: "device-a", sequence: sequence, time: Timestamp(iso8601: day + "T09:00:00.000Z")!,
            kind: kind, feature: feature, quantity: quantity, amount: MicroCredits(amount), balanceAfter: .zero,
            refersTo: refersTo, receipt: receipt)
    }

    static var entries: [LedgerEntry] {
        [
            entry(1, "opening", "2026-10-01", .opening, 5_000_000),
            entry(
                2, "topup-mockstore-1", "2026-10-10", .topup, 5_000_000,
                receipt: receipt(price: 5_000, currency: "GBP", storefront: "GBR")),
            // 76 seconds of audio: two started minutes at 3p.
            entry(3, "c-transcript", "2026-11-25", .charge, -60_000, feature: "transcript", quantity: 2),
            entry(4, "c-debrief", "2026-11-26", .charge, -50_000, feature: "debrief"),
            entry(
                5, "reversal-mockstore-1-1795900000000-50000", "2026-11-27", .reversal, -2_500_000,
                refersTo: "topup-mockstore-1",
                receipt: receipt(price: 5_000, currency: "GBP", storefront: "GBR", revocationPercentage: 50_000)),
            entry(
                6, "topup-mockstore-2", "2026-11-28", .topup, 5_000_000,
                receipt: receipt(price: 4_990, currency: "USD", storefront: "USA")),
            entry(7, "topup-sim-1", "2026-11-28", .topup, 5_000_000),
        ]
    }
}
