import CreditLedger
import Foundation

/// A ledger whose P&L was worked out by hand (see ProfitAndLossTests): charges across 40 days, two declines, a top-up,
/// and a test cost list with sub-penny figures.
enum KnownLedger {
    /// 2026-11-29T12:00:00.000Z.
    static let asOf = Timestamp(milliseconds: 1_795_953_600_000)

    /// Test costs, per unit of the price: a transcript per started minute, a save per file.
    struct Costs: CostList {
        let items: [CostItem] = [
            CostItem(key: "transcript", label: "speech-to-text, a minute", cost: MicroCredits(4_300)),
            CostItem(key: "debrief", label: "a model call", cost: MicroCredits(2_150)),
            CostItem(key: "saveToVault", label: "a file", cost: MicroCredits(300)),
            CostItem(key: "pushVault", label: "bytes moved", cost: MicroCredits(500)),
            CostItem(key: "cleanPassage", label: "a model call", cost: MicroCredits(12_000)),
            CostItem(key: "createVault", label: "on the device", cost: .zero),
        ]
    }

    /// The words and subject a user wrote: escaped on the page, never in a summary.
    static let hostileText = "see https://evil.example/<script>alert(1)</script> & \"quote\""
    static let hostileSubject = "<img src=x onerror=alert(1)> note"

    static func at(_ days: Double) -> Timestamp {
        Timestamp(milliseconds: asOf.milliseconds + Int64(days * 86_400_000))
    }

    static var entries: [LedgerEntry] {
        var sequence: Int64 = 0
        var balance = MicroCredits.zero
        var entries: [LedgerEntry] = []
        func add(
            _ id: String, _ kind: EntryKind, _ time: Timestamp, _ amount: Int64, feature: String? = nil,
            quantity: Int64 = 1, refersTo: String? = nil, reason: String? = nil, text: String? = nil,
            subject: String? = nil
        ) {
            sequence += 1
            balance = MicroCredits(balance.rawValue + amount)
            entries.append(
                LedgerEntry(
                    id: id, device: "device-secret-name", sequence: sequence, time: time, kind: kind,
                    feature: feature, subject: subject, quantity: quantity, amount: MicroCredits(amount),
                    balanceAfter: balance, refersTo: refersTo, reason: reason, text: text))
        }
        add("opening", .opening, at(-41), 5_000_000)
        // 76 seconds of audio: two started minutes at 3p.
        add("c-transcript-old", .charge, at(-40), -60_000, feature: "transcript", quantity: 2, subject: "note-a")
        add("c-transcript", .charge, at(-10), -150_000, feature: "transcript", quantity: 5, subject: hostileSubject)
        add(
            "refund-c-transcript", .refund, at(-9), 150_000, feature: "transcript", refersTo: "c-transcript",
            reason: "not-usable")
        add("c-debrief-1", .charge, at(-3), -50_000, feature: "debrief", subject: "note-b")
        add("c-vault", .charge, at(-2), -100_000, feature: "createVault", subject: "vault-1")
        add("c-push", .charge, at(-2), -10_000, feature: "pushVault", quantity: 3, subject: "vault-1")
        add("c-save", .charge, at(-2), -40_000, feature: "saveToVault", quantity: 4, subject: "note-b")
        add("c-debrief-2", .charge, at(-1), -50_000, feature: "debrief", subject: "note-c")
        add("c-clean", .charge, at(-1), -10_000, feature: "cleanPassage", subject: "note-c")
        add(
            "refund-c-clean", .refund, at(-0.9), 10_000, feature: "cleanPassage", refersTo: "c-clean",
            reason: "other", text: hostileText)
        add("topup-sim-1", .topup, at(-0.5), 5_000_000, text: "Top-up (simulated, no money taken)")
        return entries
    }
}
