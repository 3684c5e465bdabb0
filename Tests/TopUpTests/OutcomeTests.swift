import CreditLedger
import Foundation
import Payments
import Signing
import StoreWire
import Synchronization
import Testing
import TopUp

/// A ``FakeStore`` whose finish or purchase can be made to fail (as `mockstore control fail finish` does, or as a
/// store that never answers).
final class FaultyStore: StoreProvider, Sendable {
    let inner: FakeStore
    private let faults = Mutex<(finish: StoreError?, purchase: StoreError?)>((nil, nil))
    var name: String { inner.name }
    var displayName: String { inner.displayName }
    var takesMoney: Bool { inner.takesMoney }

    init(_ inner: FakeStore) { self.inner = inner }

    func failFinish(_ error: StoreError?) { faults.withLock { $0.finish = error } }
    /// The purchase is made at the store, then the answer is lost with `error`.
    func loseNextPurchaseAnswer(_ error: StoreError?) { faults.withLock { $0.purchase = error } }

    func products(for ids: [String]) async throws -> [StoreProduct] { try await inner.products(for: ids) }
    func purchase(_ productID: String, appAccountToken: UUID?) async throws -> PurchaseOutcome {
        let outcome = try await inner.purchase(productID, appAccountToken: appAccountToken)
        if let error = faults.withLock({ $0.purchase }) { throw error }
        return outcome
    }
    func unfinished() async throws -> [SignedTransaction] { try await inner.unfinished() }
    func finish(transactionID: String) async throws {
        if let error = faults.withLock({ $0.finish }) { throw error }
        try await inner.finish(transactionID: transactionID)
    }
    func updates(after cursor: String?) async throws -> (signedTransactions: [SignedTransaction], cursor: String?) {
        try await inner.updates(after: cursor)
    }
}

@Suite struct OutcomeTests {
    let secret = Array("shared-secret-for-tests".utf8)
    let ledger: Ledger

    init() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("outcomes-\(UUID().uuidString)")
        ledger = try Ledger.openSigned(
            directory: directory.path, clock: FixedClock(Timestamp(milliseconds: 1_764_400_000_000), step: 1000),
            ids: SequentialIDs(prefix: "e"))
    }

    func flow(_ store: any StoreProvider, verifier: ReceiptVerifier? = nil) -> TopUpFlow {
        TopUpFlow(
            ledger: ledger, store: store,
            verifier: verifier
                ?? ReceiptVerifier(
                    method: .hs256(secret: secret), bundleID: "ai.voicedebrief.app", environment: .sandbox),
            catalogue: TopUpFlowTests.packs, bundleID: "ai.voicedebrief.app")
    }
}

extension OutcomeTests {
    /// Paid and recorded, then the finish failed: a success, credited once; the next collect finishes it.
    @Test func aFinishThatFailsAfterRecordingIsStillATopUp() async throws {
        let store = FaultyStore(FakeStore(signer: .hs256(secret: secret)))
        store.failFinish(.storeResponse(status: 503, code: .simulatedStoreKitError, message: "Simulated failure for finish"))
        let result = try await flow(store).topUp()
        guard case .creditedNotFinished(let entry, let again, let problem) = result else {
            Issue.record("expected credited, not finished: \(result)")
            return
        }
        #expect(!again)
        #expect(problem == "the store said: Simulated failure for finish")
        #expect(entry.amount == MicroCredits(5_000_000))
        #expect(ledger.balance == MicroCredits(10_000_000))
        #expect(store.inner.unfinishedCount == 1)
        #expect(store.inner.finishes.isEmpty)
        // The finish still fails: collecting credits nothing again and leaves it for later.
        await #expect(throws: StoreError.self) { try await flow(store).collect() }
        #expect(ledger.balance == MicroCredits(10_000_000))
        store.failFinish(nil)
        let report = try await flow(store).collect()
        #expect(report.credited.isEmpty)
        #expect(report.alreadyCredited.map(\.id) == [entry.id])
        #expect(report.finished == 1)
        #expect(store.inner.unfinishedCount == 0)
        #expect(ledger.balance == MicroCredits(10_000_000))
    }

    /// The purchase went out and no answer came: the caller is told it may have gone through, nothing is written,
    /// and the next collect credits it once.
    @Test func aPurchaseWithoutAnAnswerMayHaveGoneThroughAndIsCollectedOnce() async throws {
        let store = FaultyStore(FakeStore(signer: .hs256(secret: secret)))
        store.loseNextPurchaseAnswer(.noAnswer("no answer from 127.0.0.1:1 within 2 seconds"))
        do {
            _ = try await flow(store).topUp()
            Issue.record("a purchase without an answer was reported as an outcome")
        } catch let unknown as PurchaseOutcomeUnknown {
            #expect(unknown.productID == "ai.voicedebrief.app.credit.500")
            #expect(unknown.description.contains("the purchase of £5 of credit may have gone through"))
            #expect(unknown.description.contains("the next collect credits it, once"))
            #expect(unknown.description.contains("no answer from 127.0.0.1:1 within 2 seconds"))
        }
        #expect(ledger.balance == MicroCredits(5_000_000))
        store.loseNextPurchaseAnswer(nil)
        let report = try await flow(store).collect()
        #expect(report.credited.count == 1)
        let again = try await flow(store).collect()
        #expect(again.credited.isEmpty)
        #expect(ledger.balance == MicroCredits(10_000_000))
    }

    /// A store that could not be reached at all took nothing: that is an ordinary failure, not "may have".
    @Test func aStoreThatCannotBeReachedIsAPlainFailure() async throws {
        let store = FakeStore(signer: .hs256(secret: secret))
        store.setFailure(.networkError("nothing answers at 127.0.0.1:1; is the store running?"))
        await #expect(throws: StoreError.self) { try await flow(store).topUp() }
        #expect(!StoreError.networkError("x").mayHaveReachedTheStore)
        #expect(StoreError.noAnswer("x").mayHaveReachedTheStore)
    }

    /// No store error shows its HTTP status or error code.
    @Test func storeErrorsAreInPlainWords() {
        let error = StoreError.storeResponse(status: 503, code: .simulatedStoreKitError, message: "Simulated failure")
        #expect(error.description == "the store said: Simulated failure")
        #expect(!error.description.contains("5030000"))
    }

    /// A Production receipt, signed by the test CA, is refused by a Sandbox configuration: never credited, never
    /// finished, and reported with its transaction id and both environments.
    @Test func aProductionReceiptIsRefusedBySandbox() async throws {
        let authority = try TestCertificateAuthority.make(validFrom: Date(timeIntervalSince1970: 1_700_000_000))
        let fake = FakeStore(signer: .es256(key: authority.leafKey, x5c: authority.chain, keyID: nil))
        let made = try fake.makeTransaction(environment: .production)
        let sandbox = ReceiptVerifier(
            method: .es256(root: authority.root), bundleID: "ai.voicedebrief.app", environment: .sandbox)
        let report = try await flow(fake, verifier: sandbox).collect()
        #expect(report.credited.isEmpty)
        #expect(report.refused.map(\.transactionID) == [made.id])
        let words = try #require(report.refused.first?.description)
        #expect(words.contains("Production") && words.contains("Sandbox"), "\(words)")
        #expect(fake.finishes.isEmpty)
        #expect(fake.unfinishedCount == 1)
        #expect(ledger.balance == MicroCredits(5_000_000))
        // The same receipt is credited by a Production configuration.
        let production = ReceiptVerifier(
            method: .es256(root: authority.root), bundleID: "ai.voicedebrief.app", environment: .production)
        #expect(try await flow(fake, verifier: production).collect().credited.count == 1)
    }
}

extension OutcomeTests {
    /// Two Ask to Buy requests are two lines; approving one settles that one only.
    @Test func eachPendingPurchaseIsItsOwnLineSettledOnItsOwn() throws {
        var pending = PendingPurchases()
        let asked = Timestamp(milliseconds: 1_764_400_000_000)
        let product = "ai.voicedebrief.app.credit.500"
        pending.add(product: product, at: asked, reason: .askToBuy, transactionID: "2000000001")
        pending.add(
            product: product, at: Timestamp(milliseconds: asked.milliseconds + 60_000), reason: .askToBuy,
            transactionID: "2000000002")
        pending.add(product: product, at: asked, reason: .askToBuy, transactionID: "2000000002")  // told twice
        #expect(pending.purchases.map(\.transactionId) == ["2000000001", "2000000002"])
        #expect(pending.descriptions(at: asked).count == 2)
        #expect(pending.descriptions(at: asked)[1].contains("transaction 2000000002"))
        var second = EntryDraftProbe.topUp(reference: "2000000002", product: product)
        pending.settle(credited: [second])
        #expect(pending.purchases.map(\.transactionId) == ["2000000001"])
        // Without ids (StoreKit gives none), the oldest of the product is settled.
        var anonymous = PendingPurchases()
        anonymous.add(product: product, at: asked, reason: .askToBuy)
        anonymous.add(product: product, at: asked, reason: .askToBuy)
        #expect(anonymous.purchases.count == 2)
        second = EntryDraftProbe.topUp(reference: "2000000009", product: product)
        anonymous.settle(credited: [second])
        #expect(anonymous.purchases.count == 1)
    }
}

/// Ledger entries as a flow writes them, for settling pending purchases.
enum EntryDraftProbe {
    static func topUp(reference: String, product: String) -> LedgerEntry {
        LedgerEntry(
            id: "topup-mockstore-\(reference)", device: "d", sequence: 1, time: Timestamp(milliseconds: 0),
            kind: .topup, amount: MicroCredits(5_000_000), balanceAfter: MicroCredits(5_000_000),
            reference: reference, product: product)
    }
}
