import CreditLedger
import Foundation
import Testing

/// Issue 25 item 2 through the real binaries: two devices of one account that see a partial refund at different
/// moments still merge, both ways, to the balance the store's refund now leaves.
extension RefundEndToEndTests {
    /// The ids of the refund steps of transaction `id` in `directory`, in the order `entries` lists them (newest
    /// first).
    func refundSteps(_ directory: DataDirectory, _ id: String) async throws -> [String] {
        try await directory.ok("entries", "--json").jsonArray().compactMap { $0["id"] as? String }.filter {
            ($0.hasPrefix("reversal-") || $0.hasPrefix("reinstated-")) && $0.contains(id)
        }
    }

    @Test func devicesThatSawAPartialRefundAtDifferentMomentsMergeBothWays() async throws {
        let key = try apiKey()
        let store = try await started(["--api-key", "TESTKEY001=\(key)"])
        let reconcile = ["reconcile", "--api-key", "TESTKEY001=\(key)", "--issuer", "issuer-1"]
        let a = data
        let id = try await toppedUp()
        let b = try DataDirectory()
        try await b.ok("join", a.path)
        try await b.ok("collect")
        // A sees every state: 50% refunded, the refund reversed, then 25% refunded.
        try await store.store.refund(id, percentage: 50000)
        try await a.ok("collect")
        await #expect(try a.balance() == 7_500_000)
        try await store.store.reverseRefund(id)
        try await a.ok("collect")
        await #expect(try a.balance() == 10_000_000)
        try await store.store.refund(id, percentage: 25000)
        // B sees only the last one; then A.
        let onB = try await b.ok("collect", "--json").jsonObject()
        let reversedOnB = try #require(onB["reversed"] as? [[String: Any]], "\(onB)")
        #expect(reversedOnB.map { int64($0["amount"]) } == [-1_250_000], "\(onB)")
        try await a.ok("collect")
        try await b.ok("charge", "debrief")

        let stepsOnA = try await refundSteps(a, id)
        let stepsOnB = try await refundSteps(b, id)
        #expect(stepsOnA.count == 3, "\(stepsOnA)")
        #expect(stepsOnB.count == 1 && stepsOnA.first == stepsOnB.first, "A: \(stepsOnA), B: \(stepsOnB)")
        #expect(stepsOnB.first?.hasSuffix("-25000") == true, "a prorated refund's id names its share: \(stepsOnB)")

        let intoA = try await a.credit("merge", b.path)
        #expect(intoA.status == 0, "\(intoA)")
        let intoB = try await b.credit("merge", a.path)
        #expect(intoB.status == 0, "\(intoB)")
        // £5.00 opening + £5.00 bought − 25% of it (£1.25) − B's debrief (£0.05).
        let right: Int64 = 5_000_000 + 5_000_000 - 1_250_000 - 50_000
        await #expect(try a.balance() == right)
        await #expect(try b.balance() == right)
        for device in [a, b] {
            let verify = try await device.ok("verify", "--json").jsonObject()
            #expect(verify["ok"] as? Bool == true, "\(verify)")
        }

        // Replays: each collects again, reconcile finds nothing to fix, --fix writes nothing.
        for device in [a, b] {
            let again = try await device.ok("collect")
            #expect(again.stdout.contains("Nothing to collect."), "\(again)")
            let found = try await Credit.run(reconcile, dataDirectory: device.path)
            #expect(found.status == 0 && found.stdout.contains("agree"), "\(found)")
            await #expect(try Credit.run(reconcile + ["--fix"], dataDirectory: device.path).status == 0)
            await #expect(try device.balance() == right)
            await #expect(try refundSteps(device, id).count == 3)
        }
        await store.stop()
    }
}
