import CreditLedger
import Foundation
import Payments
import Signing
import StoreWire
import Testing
import TopUp

/// The flow knows no app: another app (the owner's second, sgit) with its own packs and bundle id uses it unchanged.
@Suite struct OtherAppTests {
    static let bundleID = "dev.sgit.app"
    static let packs = PackCatalogue(
        credits: [
            "dev.sgit.app.credit.small": MicroCredits(2_000_000), "dev.sgit.app.credit.large": MicroCredits(7_500_000),
        ],
        defaultProduct: "dev.sgit.app.credit.small")
    let secret = Array("sgit-secret-for-tests".utf8)
    let ledger: Ledger

    init() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sgit-\(UUID().uuidString)").path
        ledger = try Ledger.openSigned(
            directory: directory, clock: FixedClock(Timestamp(milliseconds: 1_764_400_000_000), step: 1000),
            ids: SequentialIDs(prefix: "s"))
    }

    func flow(_ store: FakeStore) -> TopUpFlow {
        TopUpFlow(
            ledger: ledger, store: store,
            verifier: ReceiptVerifier(
                method: .hs256(secret: secret), bundleID: OtherAppTests.bundleID, environment: .sandbox),
            catalogue: OtherAppTests.packs, bundleID: OtherAppTests.bundleID)
    }

    @Test func anotherAppsPacksAreBoughtCollectedAndAudited() async throws {
        let store = FakeStore(signer: .hs256(secret: secret), bundleID: OtherAppTests.bundleID)
        let start = ledger.balance
        guard case .credited(let small) = try await flow(store).topUp() else {
            Issue.record("the default pack was not credited")
            return
        }
        #expect(small.product == "dev.sgit.app.credit.small")
        #expect(small.amount == MicroCredits(2_000_000))
        guard case .credited(let large) = try await flow(store).topUp(productID: "dev.sgit.app.credit.large") else {
            Issue.record("the large pack was not credited")
            return
        }
        #expect(large.amount == MicroCredits(7_500_000))
        let approved = try store.approvePending(product: "dev.sgit.app.credit.large")
        let report = try await flow(store).collect()
        #expect(report.credited.map(\.reference) == [approved])
        #expect(try ledger.balance == start.adding(MicroCredits(17_000_000)))
        #expect(store.finishes.count == 3)
        let audit = ReceiptAudit(
            verifier: ReceiptVerifier(
                method: .hs256(secret: secret), bundleID: OtherAppTests.bundleID, environment: .sandbox),
            catalogue: OtherAppTests.packs)
        #expect(audit.problem(with: small) == nil)
        #expect(audit.problem(with: large) == nil)
    }

    @Test func theFirstAppsPacksAndTransactionsAreNotThisAppsOwn() async throws {
        let store = FakeStore(signer: .hs256(secret: secret), bundleID: OtherAppTests.bundleID)
        await #expect(throws: RefusedTransaction.self) {
            try await flow(store).topUp(productID: "ai.voicedebrief.app.credit.500")
        }
        _ = try store.makeTransaction(product: "ai.voicedebrief.app.credit.500", bundle: "ai.voicedebrief.app")
        _ = try store.makeTransaction(product: "ai.voicedebrief.app.credit.500")
        let report = try await flow(store).collect()
        #expect(report.credited.isEmpty)
        #expect(report.refused.count == 2)
        #expect(store.finishes.isEmpty)
        #expect(store.unfinishedCount == 2)
    }
}

extension TopUpFlowTests {
    /// A receipt from another environment than the store's is never credited and never finished, whichever way round.
    @Test(arguments: [(AppStoreEnvironment.sandbox, AppStoreEnvironment.production), (.production, .sandbox)])
    func aReceiptFromTheOtherEnvironmentIsRefused(_ expected: AppStoreEnvironment, _ sent: AppStoreEnvironment)
        async throws
    {
        let store = FakeStore(signer: .hs256(secret: secret))
        let made = try store.makeTransaction(environment: sent)
        let flow = TopUpFlow(
            ledger: ledger, store: store,
            verifier: ReceiptVerifier(
                method: .hs256(secret: secret), bundleID: "ai.voicedebrief.app", environment: expected),
            catalogue: TopUpFlowTests.packs, bundleID: "ai.voicedebrief.app")
        let report = try await flow.collect()
        #expect(report.credited.isEmpty)
        #expect(
            report.refused.map(\.reason) == [
                "its environment is \(sent), and this store's receipts must be \(expected)"
            ])
        await #expect(throws: RefusedTransaction.self) { try await flow.deliver(made.jws) }
        #expect(store.finishes.isEmpty)
        #expect(store.unfinishedCount == 1)
        #expect(ledger.balance == MicroCredits(5_000_000))
        #expect(ledger.entries.filter { $0.kind == .topup }.isEmpty)
    }
}
