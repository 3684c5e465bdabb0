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
        let store = try await StoreProcess.start(dataDirectory: home.file("store"))
        let root = home.file("root.der")
        try await store.saveRoot(to: root)
        try await data.ok("store", "use", "mockstore", "--url", store.url, "--root-certificate", root)
        return store
    }

    /// The ids of the store's transactions, oldest first.
    private func transactionIDs(_ store: StoreProcess) async throws -> [String] {
        try await store.store.transactions().map(\.transactionId)
    }

    /// Item 8, as StoreKit 2 tells it: an interrupted purchase comes back as cancelled (StoreKit says no more), so
    /// the words say it may still complete, and it is credited once it does.
    @Test func anInterruptedPurchaseIsCreditedWhenItCompletes() async throws {
        let store = try await started()
        try await store.store.setInterruptedPurchases(true)
        let asked = try await data.ok("topup")
        #expect(asked.stdout.contains("Nothing was bought"), "\(asked)")
        #expect(asked.stdout.contains("resolve something first"), "\(asked)")
        #expect(asked.stdout.contains("credited when it completes"), "\(asked)")
        let json = try await data.ok("topup", "--json").jsonObject()
        #expect(json["result"] as? String == "userCancelled", "\(json)")
        let ids = try await transactionIDs(store)
        #expect(ids.count == 2, "each interrupted purchase is a transaction of its own at the store: \(ids)")
        let id = try #require(ids.first)
        try await store.store.setInterruptedPurchases(false)
        try await store.store.resolve(id)
        let collected = try await data.ok("collect")
        #expect(collected.stdout.contains("Collected £5.00 from transaction \(id)"), "\(collected)")
        await #expect(try data.balance() == 10_000_000)
        let again = try await data.ok("collect")
        #expect(!again.stdout.contains("Collected"), "credited once: \(again)")
        await #expect(try data.balance() == 10_000_000)
        await store.stop()
    }

    /// Item 15: the top-up's entry reads as words.
    @Test func aTopUpThroughTheMockStoreIsNamedInWords() async throws {
        // Nothing of the store's own is changed: a customer of its own on the shared store.
        try await StoreProcess.withShared { store in
            let root = home.file("root.der")
            try await store.saveRoot(to: root)
            try await data.ok("store", "use", "mockstore", "--url", store.url, "--root-certificate", root)
            let bought = try await data.ok("topup", "--json").jsonObject()
            #expect(bought["text"] as? String == "Top-up through the mock store", "\(bought)")
            let entries = try await data.ok("entries", "--json").jsonArray()
            #expect(entries.first?["text"] as? String == "Top-up through the mock store", "\(entries)")
        }
    }

    /// Item 12: a StoreKit error the store answers with is said in words, with what became of the purchase.
    @Test(
        arguments: [.networkError, .systemError, .unknown, .notAvailableInStorefront]
            as [StoreKitErrorName.StoreKitErrorCase])
    func aStoreKitErrorIsSaidInWordsAndThatNothingWasBought(_ name: StoreKitErrorName.StoreKitErrorCase) async throws {
        let store = try await started()
        try await store.store.fail(.purchase, with: .storeKit(name), once: true)
        let result = try await data.credit("topup")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("Nothing was bought."), "\(result)")
        for leak in ["StoreKitError", "Simulated", "test control", "5030000", ".swift:"] {
            #expect(!result.stderr.contains(leak), "\(leak): \(result)")
        }
        await #expect(try data.balance() == 5_000_000)
        await store.stop()
    }

    /// Item 9, as StoreKit 2 tells it: StoreKit tells an app nothing of a declined Ask to Buy request (the purchase
    /// simply never completes), so nothing is credited and the request is shown waiting until it lapses.
    @Test func aDeclinedAskToBuyCreditsNothingAndLapses() async throws {
        let store = try await started()
        try await store.store.setAskToBuy(true)
        let asked = try await data.ok("topup", "--json").jsonObject()
        #expect(asked["result"] as? String == "pending", "\(asked)")
        let before = try await data.ok("screen", "--json").jsonObject()
        #expect((before["pending"] as? [[String: Any]])?.count == 1, "\(before)")
        let id = try await #require(try transactionIDs(store).first)
        try await store.store.decline(id)
        let collected = try await data.ok("collect")
        #expect(collected.stdout.contains("Nothing to collect."), "\(collected)")
        await #expect(try data.balance() == 5_000_000)
        let later = try await Credit.run(["screen"], dataDirectory: data.path, now: "2026-12-01T12:00:00.000Z")
        #expect(later.stdout.contains("had no answer within a day"), "\(later)")
        await store.stop()
    }
}
