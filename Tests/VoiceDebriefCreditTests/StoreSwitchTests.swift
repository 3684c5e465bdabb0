import CreditLedger
import Foundation
import Payments
import Testing
import TopUp
import VoiceDebriefCredit

/// The owner's switch (`appStoreIsOn`): the app's configuration chooses the simulated store or the App Store, and on
/// Linux the App Store is `mockstore`, reached through the one App Store provider over MockStoreKit.
@Suite struct StoreSwitchTests {
    @Test func offTheDefaultStoreIsTheSimulatedOne() throws {
        #expect(VoiceDebriefStore.appStoreIsOn == false, "switched off until the product exists (the owner's note)")
        let directory = try TemporaryDirectory()
        let store = try CreditApp.provider(StoreConfiguration(store: .simulated), directory: directory.path)
        #expect(store is SimulatedStore)
        #expect(store.name == "simulated" && !store.takesMoney)
    }

    @Test func onTheDefaultStoreIsTheAppStore() throws {
        let directory = try TemporaryDirectory()
        let store = try CreditApp.provider(
            StoreConfiguration(store: .simulated), directory: directory.path, appStoreIsOn: true)
        #expect(!(store is SimulatedStore))
        // On Linux the App Store is the mock store: its top-ups keep the ids the mock store's always had.
        #expect(store.name == "mockstore" && store.takesMoney)
    }

    @Test func aMockstoreConfigurationTopsUpThroughTheProviderAgainstThatStore() async throws {
        let directory = try TemporaryDirectory()
        let store = try await LaunchedMockStore.start(dataDirectory: directory.file("store"))
        try store.saveRoot(to: directory.file("root.der"))
        let data = directory.file("data")
        let root = try #require(FileManager.default.contents(atPath: directory.file("root.der")))
        let configuration = try StoreConfiguration.useMockStore(
            url: store.url, rootCertificate: Array(root), secret: nil, bundleID: VoiceDebriefStore.bundleID,
            in: data)
        let ledger = try CreditApp.openLedger(
            directory: data, clock: FixedClock(Timestamp(milliseconds: 1_795_953_600_000)),
            ids: SequentialIDs(prefix: "e"))
        let flow = try CreditApp.topUpFlow(ledger: ledger, configuration: configuration, directory: data)
        #expect(!(flow.store is SimulatedStore))
        let offers = try await flow.store.products(for: [VoiceDebriefStore.packs.defaultProduct])
        #expect(offers.map(\.displayPrice) == ["£5.00"])
        guard case .credited(let entry) = try await flow.topUp() else {
            Issue.record("the top-up was not credited")
            return
        }
        #expect(entry.text == "Top-up through the mock store")
        #expect(entry.id.hasPrefix(EntryDraft.topUpID(store: "mockstore", reference: "")))
        #expect(ledger.balance == MicroCredits(10_000_000))
        #expect(try store.unfinished().isEmpty, "recorded, then finished")
    }
}
