import Foundation
import TestSupport
import Testing

/// Issue 25's words about purchases that do not complete at once, through the real `credit` and `mockstore`.
@Suite struct PurchaseWordsTests {
    let home: TemporaryDirectory
    let data: DataDirectory

    init() throws {
        home = try TemporaryDirectory(prefix: "purchase-words")
        data = try DataDirectory()
    }

    private func started() async throws -> StoreProcess {
        let store = try StoreProcess(dataDirectory: home.file("store"))
        let root = home.file("root.der")
        try await store.saveRoot(to: root)
        try data.ok("store", "use", "mockstore", "--url", store.url, "--root-certificate", root)
        return store
    }

    /// Item 8: an interrupted purchase is not "cancelled": it waits, shows on the screen, and is credited once it
    /// completes.
    @Test func anInterruptedPurchaseIsPendingAndCreditedWhenItCompletes() async throws {
        let store = try await started()
        try store.control("interrupted", "on")
        let asked = try data.ok("topup")
        #expect(!asked.stdout.contains("Cancelled"), "\(asked)")
        #expect(!asked.stdout.contains("Nothing was bought"), "\(asked)")
        #expect(asked.stdout.contains("interrupted"), "\(asked)")
        #expect(asked.stdout.contains("credited when it completes"), "\(asked)")
        let json = try data.ok("topup", "--json").jsonObject()
        #expect(json["result"] as? String == "pending", "\(json)")
        let id = try #require(json["transactionId"] as? String, "\(json)")
        let screen = try data.ok("screen", "--json").jsonObject()
        let pending = try #require(screen["pending"] as? [[String: Any]], "\(screen)")
        #expect(pending.count == 2, "each interrupted purchase is its own line: \(pending)")
        #expect(pending.contains { $0["transactionId"] as? String == id })
        try store.control("interrupted", "off")
        try store.control("resolve", id)
        let collected = try data.ok("collect")
        #expect(collected.stdout.contains("Collected £5.00 from transaction \(id)"), "\(collected)")
        #expect(try data.balance() == 10_000_000)
        let after = try data.ok("screen", "--json").jsonObject()
        let left = try #require(after["pending"] as? [[String: Any]])
        #expect(left.count == 1 && left.first?["transactionId"] as? String != id, "\(left)")
        store.stop()
    }

    /// Item 15: the top-up's entry reads as words.
    @Test func aTopUpThroughTheMockStoreIsNamedInWords() async throws {
        let store = try await started()
        let bought = try data.ok("topup", "--json").jsonObject()
        #expect(bought["text"] as? String == "Top-up through the mock store", "\(bought)")
        let entries = try data.ok("entries", "--json").jsonArray()
        #expect(entries.first?["text"] as? String == "Top-up through the mock store", "\(entries)")
        store.stop()
    }

    /// Item 12: a StoreKit error the store answers with is said in words, with what became of the purchase.
    @Test(arguments: ["networkError", "systemError", "unknown", "notAvailableInStorefront"])
    func aStoreKitErrorIsSaidInWordsAndThatNothingWasBought(_ name: String) async throws {
        let store = try await started()
        try store.control("fail", "purchase", "--error", name, "--once")
        let result = try data.credit("topup")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("Nothing was bought."), "\(result)")
        for leak in ["StoreKitError", "Simulated", "test control", "5030000", ".swift:"] {
            #expect(!result.stderr.contains(leak), "\(leak): \(result)")
        }
        #expect(try data.balance() == 5_000_000)
        store.stop()
    }

    /// Item 9: a declined Ask to Buy request is no longer shown as waiting; the decline is said once.
    @Test func aDeclinedAskToBuyGoesFromTheScreenAndIsSaidOnce() async throws {
        let store = try await started()
        try store.control("ask-to-buy", "on")
        let asked = try data.ok("topup", "--json").jsonObject()
        let id = try #require(asked["transactionId"] as? String, "\(asked)")
        let before = try data.ok("screen", "--json").jsonObject()
        #expect((before["pending"] as? [[String: Any]])?.count == 1, "\(before)")
        try store.control("decline", id)
        let collected = try data.ok("collect")
        #expect(collected.stdout.contains("(transaction \(id))"), "\(collected)")
        #expect(collected.stdout.contains("was declined: nothing was bought"), "\(collected)")
        let after = try data.ok("screen", "--json").jsonObject()
        #expect((after["pending"] as? [[String: Any]])?.isEmpty == true, "\(after)")
        let again = try data.ok("collect")
        #expect(!again.stdout.contains("declined"), "said once: \(again)")
        #expect(try data.balance() == 5_000_000)
        store.stop()
    }
}
