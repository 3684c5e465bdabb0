import Foundation
import MockStoreTesting
import Signing
import StoreWire
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 27: the test library a server's test suite adds (`MockStoreTesting`): an ephemeral store as a child process,
/// typed controls, and waiting for the notifications the store records.
@Suite struct TestStoreLibraryTests {
    static let credit = "ai.voicedebrief.app.credit.500"
    static let subscriptions = Repository.root + "/Tests/Fixtures/Subscriptions.storekit"

    /// A store from the built binary, in memory, started from a folder outside the repository (so the catalogue is
    /// found the way the binary finds it) unless one is given.
    private func start(catalogue: String? = nil, in directory: TemporaryDirectory) async throws -> TestStore {
        var options = TestStore.Options()
        options.binary = try Binaries.require("mockstore")
        options.catalogue = catalogue
        options.workingDirectory = directory.path
        return try await TestStore.start(options)
    }

    @Test func aRefundIsWaitedForAndCarriesItsTransaction() async throws {
        let directory = try TemporaryDirectory()
        let store = try await start(in: directory)
        let bought = try await store.buy(Self.credit)
        let id = bought.transaction.transactionId
        #expect(bought.signedTransaction?.split(separator: ".").count == 3, "a JWS")
        try await store.refund(id)
        let refunds = try await store.notifications(of: .refund, count: 1, within: .seconds(300))
        #expect(refunds.count == 1 && refunds[0].transactionId == id && refunds[0].notificationType == .refund)
        #expect(try await store.transactions().first?.revocationDate != nil)
        #expect(await store.stop() == 0)
    }

    @Test func aWaitThatTimesOutSaysWhatDidArrive() async throws {
        let directory = try TemporaryDirectory()
        let store = try await start(in: directory)
        try await store.buy(Self.credit)
        _ = try await store.notifications(of: .oneTimeCharge, within: .seconds(300))
        do {
            _ = try await store.notifications(of: .refund, within: .milliseconds(100))
            Issue.record("no refund was made, so the wait must time out")
        } catch let error as TestStoreError {
            #expect(error == .timedOut(waitingFor: "1 REFUND notification", arrived: ["ONE_TIME_CHARGE": 1]))
            #expect("\(error)".contains("what arrived: 1 ONE_TIME_CHARGE"))
        }
    }

    @Test func aControlTheStoreRefusesThrowsItsWords() async throws {
        let directory = try TemporaryDirectory()
        let store = try await start(in: directory)
        do {
            try await store.refund("999999999")
            Issue.record("an unknown transaction cannot be refunded")
        } catch TestStoreError.refused(let request, let status, let message) {
            #expect(request == "POST /test/v1/transactions/999999999/refund")
            #expect(status == 404 && !message.isEmpty)
        }
    }

    @Test func askToBuyThenApproveIsTyped() async throws {
        let directory = try TemporaryDirectory()
        let store = try await start(in: directory)
        try await store.setAskToBuy(true)
        #expect(try await store.settings().askToBuyEnabled)
        let asked = try await store.purchaseOnDevice(Self.credit)
        #expect(asked.result == "pending" && asked.pendingReason == .askToBuy && asked.signedTransaction == nil)
        let approved = try await store.approve(try #require(asked.transactionId))
        #expect(approved.transaction.status != "pending" && approved.signedTransaction != nil)
    }

    @Test func theClockIsAdvancedAndARenewalWaitedFor() async throws {
        let directory = try TemporaryDirectory()
        let store = try await start(catalogue: Self.subscriptions, in: directory)
        let monthly = SubscriptionBinaryTests.proMonthly
        try await store.buy(monthly)
        _ = try await store.notifications(of: .subscribed, subtype: .initialBuy, within: .seconds(300))
        let clock = try await store.advanceClock(by: .months(1))
        #expect(clock.events?.map(\.notificationType) == [.didRenew])
        let renewals = try await store.notifications(of: .didRenew, within: .seconds(300))
        #expect(renewals.count == 1)
    }

    @Test func theRootCertificateIsTheStoresTestRoot() async throws {
        let directory = try TemporaryDirectory()
        let store = try await start(in: directory)
        let root = try Certificate(derRepresentation: Array(try await store.rootCertificate()))
        #expect(
            root.subjectCommonName == "VoiceDebrief Mock Store Root CA", "\(String(describing: root.subjectCommonName))"
        )
    }

    @Test func aReleasedStoreIsStoppedAndItsProcessGone() async throws {
        let directory = try TemporaryDirectory()
        var pid: Int32 = 0
        do {
            let store = try await start(in: directory)
            pid = store.processIdentifier
            #expect(store.isRunning && kill(pid, 0) == 0)
        }
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "no process is left behind")
    }
}
