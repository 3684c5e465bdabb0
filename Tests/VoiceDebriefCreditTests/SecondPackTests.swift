import CreditLedger
import Foundation
import Payments
import Testing
import TopUp
import VoiceDebriefCredit

/// The owner's note: "A second pack is one more line in Payments.catalogue and one more product with the matching
/// id." The app sells one pack; this shows the second is one line, with a catalogue of the test's own.
@Suite struct SecondPackTests {
    static let second = "ai.voicedebrief.app.credit.1000"

    /// The app's packs and one more line.
    static var twoPacks: PackCatalogue {
        var packs = VoiceDebriefStore.packs
        packs.credits[second] = MicroCredits(10_000_000)  // the one more line
        return packs
    }

    @Test func theTestCatalogueIsTheAppsAndOneMoreProduct() throws {
        func products(_ path: String) throws -> [[String: Any]] {
            let data = try #require(FileManager.default.contents(atPath: path))
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return try #require(object["products"] as? [[String: Any]])
        }
        let app = try products(Repository.catalogue)
        let two = try products(Repository.twoPackCatalogue)
        #expect(app.compactMap { $0["productID"] as? String } == [VoiceDebriefStore.packs.defaultProduct])
        #expect(two.count == app.count + 1)
        #expect(two.compactMap { $0["productID"] as? String } == [VoiceDebriefStore.packs.defaultProduct, Self.second])
        func canonical(_ product: [String: Any]) throws -> Data {
            try JSONSerialization.data(withJSONObject: product, options: [.sortedKeys])
        }
        #expect(try canonical(two[0]) == canonical(app[0]), "the first product is the app's, unchanged")
        #expect(Self.twoPacks.credits.count == VoiceDebriefStore.packs.credits.count + 1)
    }

    @Test func withOneMoreLineTheScreenOffersBothAndTheSecondBuysItsCredit() async throws {
        let directory = try TemporaryDirectory()
        let secret = "a shared secret for the second pack"
        let secretFile = try directory.write(secret, to: "secret", mode: 0o600)
        let store = try await LaunchedMockStore.start(
            dataDirectory: directory.file("store"), arguments: ["--signing", "hs256", "--secret-file", secretFile],
            catalogue: Repository.twoPackCatalogue)
        let ledger = try CreditApp.openLedger(
            directory: directory.file("data"), clock: FixedClock(Timestamp(milliseconds: 1_795_953_600_000)),
            ids: SequentialIDs(prefix: "e"))
        let flow = TopUpFlow(
            ledger: ledger,
            store: try CreditApp.provider(
                StoreConfiguration(store: .mockstore, url: store.url, signing: .hs256), directory: directory.path),
            verifier: ReceiptVerifier(
                method: .hs256(secret: Array(secret.utf8)), bundleID: VoiceDebriefStore.bundleID,
                environment: .sandbox),
            catalogue: Self.twoPacks, bundleID: VoiceDebriefStore.bundleID)
        // What the credit screen offers: the store's products for the catalogue's packs.
        let offers = try await flow.store.products(for: flow.catalogue.credits.keys.sorted())
        #expect(Set(offers.map(\.id)) == [VoiceDebriefStore.packs.defaultProduct, Self.second])
        #expect(offers.first { $0.id == Self.second }?.displayPrice == "£10.00")
        guard case .credited(let entry) = try await flow.topUp(productID: Self.second) else {
            Issue.record("the second pack was not credited")
            return
        }
        #expect(entry.amount == MicroCredits(10_000_000))
        #expect(ledger.balance == MicroCredits(15_000_000))
        // The app's own catalogue, without the line, offers one pack from the same store.
        let appFlow = TopUpFlow(
            ledger: ledger, store: flow.store, verifier: nil, catalogue: VoiceDebriefStore.packs,
            bundleID: VoiceDebriefStore.bundleID)
        let appOffers = try await appFlow.store.products(for: appFlow.catalogue.credits.keys.sorted())
        #expect(appOffers.map(\.id) == [VoiceDebriefStore.packs.defaultProduct])
    }
}
