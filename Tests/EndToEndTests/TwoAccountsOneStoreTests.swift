import CreditLedger
import Foundation
import Signing
import Testing

/// Issue 25 item 4: two accounts on one store (one Apple ID, two data directories that never joined). Each account
/// sends its own `appAccountToken` with every purchase, and never credits one carrying another's: not by `topup`,
/// `collect` or `reconcile --fix`. A purchase with no token (made outside the app) is credited once, by the first
/// account that collects it.
@Suite struct TwoAccountsOneStoreTests {
    let home: TemporaryDirectory
    let x: DataDirectory
    let y: DataDirectory

    init() throws {
        home = try TemporaryDirectory(prefix: "two-accounts")
        x = try DataDirectory()
        y = try DataDirectory()
    }

    private func started() async throws -> StoreProcess {
        let store = try await StoreProcess.start(
            dataDirectory: home.file("store"), arguments: ["--api-key", "TESTKEY001=\(try apiKey())"])
        let root = home.file("root.der")
        try await store.saveRoot(to: root)
        for account in [x, y] {
            try await account.ok("store", "use", "mockstore", "--url", store.url, "--root-certificate", root)
        }
        return store
    }

    /// An API key (a P-256 private key, PEM, mode 0600) for the Server API.
    private func apiKey() throws -> String {
        let key = home.file("AuthKey_TESTKEY001.p8")
        try KeyFile.write(Array(try P256PrivateKey.generate().pemRepresentation.utf8), to: key)
        return key
    }

    /// Every transaction the store holds, as its test controls list them.
    private func transactions(_ store: StoreProcess) async throws -> [TestTransaction] {
        try await store.store.transactions()
    }

    private var reconcile: [String] {
        ["reconcile", "--api-key", "TESTKEY001=\(home.file("AuthKey_TESTKEY001.p8"))", "--issuer", "issuer-1"]
    }

    @Test func anotherAccountsPurchaseIsNeverCreditedHere() async throws {
        let store = try await started()
        let bought = try await x.ok("topup", "--json").jsonObject()
        let id = try #require(bought["reference"] as? String)
        await #expect(try x.balance() == 10_000_000)
        try await y.ok("charge", "debrief")
        let before = try await y.balance()

        let collected = try await y.ok("collect")
        await #expect(try y.balance() == before, "collect on another account credits nothing: \(collected)")

        let one = try await Credit.run(reconcile + ["--transaction", id, "--fix"], dataDirectory: y.path)
        await #expect(try y.balance() == before, "reconcile --transaction --fix credits nothing: \(one)")
        #expect(one.stdout.contains("another account"), "\(one)")
        #expect(!one.stdout.contains("paid and never credited"), "\(one)")

        let json = try await Credit.run(reconcile + ["--transaction", id, "--json"], dataDirectory: y.path).jsonObject()
        let findings = try #require(json["findings"] as? [[String: Any]])
        #expect(findings.isEmpty, "another account's purchase is no finding here: \(json)")
        let apart = try #require(json["apart"] as? [[String: Any]])
        #expect(apart.map { $0["kind"] as? String } == ["another-account"], "\(json)")

        // X's own reconcile finds nothing to fix: it is X's, credited once.
        let own = try await Credit.run(reconcile, dataDirectory: x.path)
        #expect(own.status == 0, "\(own)")
        await #expect(try x.balance() == 10_000_000)
        await store.stop()
    }

    @Test func aPurchaseCarriesTheAccountsTokenTheSameOnEveryDevice() async throws {
        let store = try await started()
        try await x.ok("charge", "debrief")
        let joined = try DataDirectory()
        try await joined.ok("join", x.path)
        let first = try await x.ok("topup", "--json").jsonObject()
        let second = try await joined.ok("topup", "--json").jsonObject()
        let ids = [first["reference"] as? String, second["reference"] as? String].compactMap { $0 }
        #expect(ids.count == 2)
        let objects = try await transactions(store)
        let tokens = Set(
            objects.filter { ids.contains($0.transactionId) }.compactMap(\.appAccountToken))
        #expect(tokens.count == 1, "one token for the account's two devices: \(objects)")
        #expect(tokens.allSatisfy { UUID(uuidString: $0) != nil })
        // The other account's purchase carries another token.
        let third = try await y.ok("topup", "--json").jsonObject()
        let again = try await transactions(store)
        let yToken = again.first { $0.transactionId == (third["reference"] as? String) }?.appAccountToken
        #expect(yToken != nil && !tokens.contains(yToken!), "\(again)")
        await store.stop()
    }

    @Test func aPurchaseMadeOutsideTheAppIsCreditedOnceByTheFirstAccountThatCollectsIt() async throws {
        let store = try await started()
        try await x.ok("charge", "debrief")
        try await y.ok("charge", "debrief")
        _ = try await store.store.buy("ai.voicedebrief.app.credit.500")
        try await x.ok("collect")
        await #expect(try x.balance() == 4_950_000 + 5_000_000, "the first account to collect it credits it")
        try await y.ok("collect")
        await #expect(try y.balance() == 4_950_000, "and no other")
        let fixed = try await Credit.run(reconcile + ["--fix"], dataDirectory: y.path)
        await #expect(try y.balance() == 4_950_000, "reconcile --fix does not credit it either: \(fixed)")
        #expect(!fixed.stdout.contains("paid and never credited"), "\(fixed)")
        // A third account, new, reads the whole updates feed: the purchase was collected, so not again.
        let z = try DataDirectory()
        try await z.ok("store", "use", "mockstore", "--url", store.url, "--root-certificate", home.file("root.der"))
        try await z.ok("collect")
        await #expect(try z.balance() == 5_000_000)
        await store.stop()
    }
}
