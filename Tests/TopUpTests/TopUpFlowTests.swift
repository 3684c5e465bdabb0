import CreditLedger
import Foundation
import Payments
import Signing
import StoreWire
import Testing
import TopUp

@Suite struct TopUpFlowTests {
    let secret = Array("shared-secret-for-tests".utf8)
    let directory: String
    let ledger: Ledger

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("payments-\(UUID().uuidString)").path
        ledger = try Ledger.openSigned(
            directory: directory, clock: FixedClock(Timestamp(milliseconds: 1_764_400_000_000), step: 1000),
            ids: SequentialIDs(prefix: "e"))
    }

    /// The packs of the app these tests stand for (the flow itself knows none).
    static let packs = PackCatalogue(
        credits: [
            "ai.voicedebrief.app.credit.500": MicroCredits(5_000_000),
            "ai.voicedebrief.app.credit.1000": MicroCredits(10_000_000),
        ],
        defaultProduct: "ai.voicedebrief.app.credit.500")
    static let simulatedPack = StoreProduct(
        id: "ai.voicedebrief.app.credit.500", type: .consumable, displayName: "£5 of credit", description: "",
        displayPrice: "£5.00")

    func verifier(_ secret: [UInt8]) -> ReceiptVerifier {
        ReceiptVerifier(method: .hs256(secret: secret), bundleID: "ai.voicedebrief.app", environment: .sandbox)
    }

    func flow(_ store: FakeStore) -> TopUpFlow {
        TopUpFlow(
            ledger: ledger, store: store, verifier: verifier(secret), catalogue: TopUpFlowTests.packs,
            bundleID: "ai.voicedebrief.app")
    }
}

extension TopUpFlowTests {
    @Test func topUpCreditsFivePoundsOnceAndFinishesAfterRecording() async throws {
        let store = FakeStore(signer: .hs256(secret: secret))
        let result = try await flow(store).topUp()
        guard case .credited(let entry) = result else {
            Issue.record("expected a credit, got \(result)")
            return
        }
        #expect(entry.amount == MicroCredits(5_000_000))
        #expect(entry.kind == .topup)
        #expect(entry.receipt != nil)
        #expect(entry.id == "topup-mockstore-\(entry.reference!)")
        #expect(ledger.balance == MicroCredits(10_000_000))
        #expect(store.finishes == [entry.reference!])
        #expect(store.unfinishedCount == 0)
    }

    @Test func theSameTransactionDeliveredAgainIsNeverCreditedTwice() async throws {
        let store = FakeStore(signer: .hs256(secret: secret))
        let transaction = try store.makeTransaction()
        let flow = flow(store)
        let first = try await flow.collect()
        #expect(first.credited.count == 1)
        // The store hands it out again (as if finish had been lost).
        let again = try await flow.deliver(transaction.jws)
        guard case .alreadyCredited = again else {
            Issue.record("expected alreadyCredited, got \(again)")
            return
        }
        let second = try await flow.collect()
        #expect(second.credited.isEmpty)
        #expect(ledger.balance == MicroCredits(10_000_000))
        #expect(ledger.entries.filter { $0.kind == .topup }.count == 1)
    }

    @Test func aPurchaseNeverRecordedIsCollectedAndCreditedOnce() async throws {
        let store = FakeStore(signer: .hs256(secret: secret))
        _ = try store.makeTransaction()  // paid, then the app stopped before recording
        let report = try await flow(store).collect()
        #expect(report.credited.count == 1)
        #expect(report.finished == 1)
        #expect(store.unfinishedCount == 0)
        let again = try await flow(store).collect()
        #expect(again.credited.isEmpty)
        #expect(ledger.balance == MicroCredits(10_000_000))
    }

    @Test(arguments: ["badSignature", "wrongBundle", "unknownProduct"])
    func aBadTransactionIsRefusedNotCreditedNotFinished(_ kind: String) async throws {
        let store = FakeStore(signer: .hs256(secret: secret))
        let made: (id: String, jws: SignedTransaction)
        switch kind {
        case "badSignature": made = try store.makeTransaction(signer: .hs256(secret: Array("another secret".utf8)))
        case "wrongBundle": made = try store.makeTransaction(bundle: "com.example.other")
        default: made = try store.makeTransaction(product: "ai.voicedebrief.app.credit.999")
        }
        let report = try await flow(store).collect()
        #expect(report.credited.isEmpty)
        #expect(report.refused.count == 1)
        // A readable id is named, even one whose signature does not verify (issue 35 item 12).
        #expect(report.refused.first?.transactionID == made.id)
        #expect(report.refused.first?.description.hasPrefix("transaction \(made.id) was refused: ") == true)
        #expect(store.finishes.isEmpty)
        #expect(store.unfinishedCount == 1)
        #expect(ledger.balance == MicroCredits(5_000_000))
    }

    @Test func pendingAndCancelledCreditNothing() async throws {
        let store = FakeStore(signer: .hs256(secret: secret))
        store.setNextResult(.pending(reason: .askToBuy))
        #expect(try await flow(store).topUp() == .pending(reason: .askToBuy))
        store.setNextResult(.userCancelled)
        #expect(try await flow(store).topUp() == .cancelled)
        #expect(ledger.balance == MicroCredits(5_000_000))
    }

    @Test func storeErrorsReachTheCallerAndWriteNothing() async throws {
        let store = FakeStore(signer: .hs256(secret: secret))
        store.setFailure(.networkError("down"))
        await #expect(throws: StoreError.networkError("down")) { try await flow(store).topUp() }
        #expect(ledger.entries.count == 1)
    }

    @Test func aProductThatIsNotAPackIsRefusedBeforeBuying() async throws {
        let store = FakeStore(signer: .hs256(secret: secret))
        await #expect(throws: RefusedTransaction.self) {
            try await flow(store).topUp(productID: "ai.voicedebrief.app.other")
        }
        #expect(store.finishes.isEmpty)
    }

    @Test func theSimulatedStoreWritesTheOwnersWords() async throws {
        let flow = TopUpFlow(
            ledger: ledger, store: SimulatedStore(pack: TopUpFlowTests.simulatedPack, makeReference: { "SIM-1" }),
            verifier: nil, catalogue: TopUpFlowTests.packs, bundleID: "ai.voicedebrief.app")
        let result = try await flow.topUp()
        #expect(result.entry?.text == "Top-up (simulated, no money taken)")
        #expect(result.entry?.id == "topup-simulated-SIM-1")
        // The same reference again is the same top-up.
        let again = try await flow.topUp()
        guard case .alreadyCredited = again else {
            Issue.record("expected alreadyCredited, got \(again)")
            return
        }
        #expect(ledger.balance == MicroCredits(10_000_000))
    }

    @Test func receiptAuditChecksProductAmountAndTransaction() async throws {
        let store = FakeStore(signer: .hs256(secret: secret))
        guard case .credited(let entry) = try await flow(store).topUp() else {
            Issue.record("no credit")
            return
        }
        let audit = ReceiptAudit(verifier: verifier(secret), catalogue: TopUpFlowTests.packs)
        #expect(audit.problem(with: entry) == nil)
        var inflated = entry
        inflated.amount = MicroCredits(50_000_000)
        #expect(audit.problem(with: inflated)?.contains("buys £5.00") == true)
        var otherProduct = entry
        otherProduct.product = "ai.voicedebrief.app.credit.1000"
        #expect(audit.problem(with: otherProduct) != nil)
        var otherTransaction = entry
        otherTransaction.reference = "1"
        #expect(audit.problem(with: otherTransaction) != nil)
        let wrongKey = ReceiptAudit(verifier: verifier(Array("x".utf8)), catalogue: TopUpFlowTests.packs)
        #expect(wrongKey.problem(with: entry)?.contains("does not verify") == true)
    }
}

extension TopUpResult {
    var entry: LedgerEntry? {
        switch self {
        case .credited(let entry), .alreadyCredited(let entry): return entry
        default: return nil
        }
    }
}
