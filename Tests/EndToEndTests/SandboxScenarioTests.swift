import Foundation
import Testing

/// The sandbox scenario through the real `credit` and `mockstore` binaries: Ask to Buy, a pending top-up, approval
/// while the app is not running, the credit screen crediting it once, then a refund taken back once.
@Suite struct SandboxScenarioTests {
    let home: TemporaryDirectory
    let data: DataDirectory

    init() throws {
        home = try TemporaryDirectory(prefix: "sandbox-e2e")
        data = try DataDirectory()
    }

    func entries(kind: String) async throws -> [[String: Any]] {
        try await data.ok("entries", "--json").jsonArray().filter { $0["kind"] as? String == kind }
    }
}

extension SandboxScenarioTests {
    @Test func askToBuyApprovedWhileTheAppIsClosedIsCreditedOnceThenARefundIsTakenBackOnce() async throws {
        let store = try await StoreProcess.start(dataDirectory: home.file("store"))
        let root = home.file("root.der")
        try await store.saveRoot(to: root)
        try await data.ok("store", "use", "mockstore", "--url", store.url, "--root-certificate", root)
        let start = try await data.balance()

        // Ask to Buy on: the top-up waits for a parent.
        #expect(try await store.store.setAskToBuy(true).askToBuyEnabled)
        let topup = try await data.ok("topup")
        #expect(topup.stdout.contains("pending"), "\(topup)")
        await #expect(try data.balance() == start)
        let waiting = try await data.ok("screen")
        #expect(waiting.stdout.contains("Pending:"), "\(waiting)")
        #expect(waiting.stdout.contains("Ask to Buy"), "the screen says what it waits for: \(waiting.stdout)")
        #expect(waiting.stdout.contains("a parent or guardian to approve it"), "\(waiting.stdout)")
        await #expect(try data.balance() == start)

        // The app is not running (every `credit` run has ended); the parent approves.
        let pending = try #require(try await store.store.transactions().first)
        #expect(pending.status == .pending)
        let id = pending.transactionId
        #expect(try await store.store.approve(id).transaction.status == .purchased)

        // The app opens its credit screen: credited once.
        let credited = try await data.ok("screen")
        #expect(credited.stdout.contains("Collected £5.00 from transaction \(id)"), "\(credited)")
        #expect(!credited.stdout.contains("Pending:"), "the pending purchase is settled: \(credited.stdout)")
        await #expect(try data.balance() == start + 5_000_000)
        try await data.ok("screen")
        try await data.ok("collect")
        await #expect(try data.balance() == start + 5_000_000, "credited once")
        await #expect(try entries(kind: "topup").filter { $0["reference"] as? String == id }.count == 1)
        let finished = try #require(try await store.store.transactions().first)
        #expect(finished.finished)

        // The store refunds it; the next collect takes the credit back, once.
        try await store.store.refund(id)
        let collect = try await data.ok("collect")
        #expect(collect.stdout.contains("The store refunded transaction \(id)"), "\(collect)")
        await #expect(try data.balance() == start)
        let reversals = try await entries(kind: "reversal")
        #expect(reversals.count == 1)
        #expect(reversals.first?["reference"] as? String == id)
        let again = try await data.ok("collect")
        #expect(again.stdout.contains("Nothing to collect."), "\(again)")
        await #expect(try data.balance() == start)
        await #expect(try entries(kind: "reversal").count == 1, "taken back once")
        let verify = try await data.ok("verify", "--json").jsonObject()
        #expect(verify["ok"] as? Bool == true, "\(verify)")
        await store.stop()
    }

    @Test func aDeclinedAskToBuyCreditsNothing() async throws {
        let store = try await StoreProcess.start(dataDirectory: home.file("store"))
        let root = home.file("root.der")
        try await store.saveRoot(to: root)
        try await data.ok("store", "use", "mockstore", "--url", store.url, "--root-certificate", root)
        let start = try await data.balance()
        try await store.store.setAskToBuy(true)
        try await data.ok("topup")
        let id = try #require(try await store.store.transactions().first).transactionId
        try await store.store.decline(id)
        let collect = try await data.ok("collect")
        // Nothing credited; StoreKit tells the app nothing of a decline, so nothing is said of one.
        #expect(!collect.stdout.contains("Collected"), "\(collect)")
        try await data.ok("screen")
        await #expect(try data.balance() == start)
        await #expect(try entries(kind: "topup").isEmpty, "a declined purchase is never credited")
        await store.stop()
    }
}
