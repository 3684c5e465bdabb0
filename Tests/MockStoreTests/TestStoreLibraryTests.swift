import Foundation
import MockStoreServer
import MockStoreTesting
import Signing
import StoreTestControls
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

    /// A store in memory: the built binary started from a folder outside the repository (so the catalogue is found
    /// the way the binary finds it) unless one is given; or (`.inProcess`, for a test of the typed calls rather than
    /// of the process) the store's code in this process, selling the repository's catalogue unless one is given.
    private func start(
        catalogue: String? = nil, in directory: TemporaryDirectory, _ run: StoreRun = .inProcess
    ) async throws -> TestStore {
        var options = TestStore.Options()
        try options.run(run)
        if run == .binary {
            options.catalogue = catalogue
            options.workingDirectory = directory.path
        } else {
            options.catalogue = catalogue ?? Repository.catalogue
        }
        return try await TestStore.start(options)
    }

    @Test func aRefundIsWaitedForAndCarriesItsTransaction() async throws {
        let directory = try TemporaryDirectory()
        let store = try await start(in: directory, .binary)
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
            #expect(request == "POST " + TestControls.refund.path(.init(transactionId: "999999999")))
            #expect(status == 404 && !message.isEmpty)
        }
    }

    @Test func askToBuyThenApproveIsTyped() async throws {
        let directory = try TemporaryDirectory()
        let store = try await start(in: directory)
        try await store.setAskToBuy(true)
        #expect(try await store.settings().askToBuyEnabled)
        let asked = try await store.purchaseOnDevice(Self.credit)
        #expect(asked.result == .pending && asked.pendingReason == .askToBuy && asked.signedTransaction == nil)
        let approved = try await store.approve(try #require(asked.transactionId))
        #expect(approved.transaction.status != .pending && approved.signedTransaction != nil)
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
            let store = try await start(in: directory, .binary)
            pid = store.processIdentifier
            #expect(store.isRunning && kill(pid, 0) == 0)
        }
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "no process is left behind")
    }
}

extension TestStoreLibraryTests {
    @Test func anyDeclaredEndpointIsSentTyped() async throws {
        let directory = try TemporaryDirectory()
        let store = try await start(in: directory)
        #expect(try await store.purchaseOnDevice(Self.credit).result == .success)
        // Signed again as each device asks (its verification and signing date), so one, not the same bytes.
        #expect(try await store.send(DeviceAPI.unfinished).signedTransactions.count == 1)
        let id = try #require(try await store.transactions().first?.transactionId)
        _ = try await store.send(DeviceAPI.finish, .init(transactionId: id), body: EmptyBody())
        #expect(try await store.send(DeviceAPI.unfinished).signedTransactions.isEmpty)
        #expect(await store.stop() == 0)
    }

    @Test func aCustomerWhoseNameNeedsEncodingIsRemoved() async throws {
        let directory = try TemporaryDirectory()
        let store = try await start(in: directory)
        try await store.addCustomer("tester+1@example.com")
        try await store.removeCustomer("tester+1@example.com")
        #expect(try await store.customers().map(\.name) == ["default"])
        #expect(await store.stop() == 0)
    }
}

extension TestStoreLibraryTests {
    /// The library's time rates are the store's, name for name.
    @Test func everyTimeRateIsOneTheStoreTakes() {
        #expect(StoreTimeRate.knownCases.map(\.rawValue) == MockStoreServer.TimeRate.allCases.map(\.name))
    }

    /// A start holds no thread while it waits: many at once on a pool of two threads still all come up, and each
    /// stops with its status.
    @Test func storesStartAndStopWithoutHoldingAThread() async throws {
        let directory = try TemporaryDirectory()
        var options = TestStore.Options()
        options.binary = try Binaries.require("mockstore")
        options.workingDirectory = directory.path
        let stores = try await withThrowingTaskGroup(of: TestStore.self) { [options] group in
            for _ in 0..<6 { group.addTask { try await TestStore.start(options) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(stores.map(\.port)).count == 6)
        for store in stores {
            #expect(store.isRunning)
            #expect(await store.stop() == 0)
            #expect(!store.isRunning)
            #expect(await store.stop() == 0, "a second stop gives the same status and sends nothing")
        }
    }

    /// A binary that exits before it listens: the start throws what it printed, at once.
    @Test func aStoreThatCannotStartSaysWhy() async throws {
        let directory = try TemporaryDirectory()
        var options = TestStore.Options()
        options.binary = try Binaries.require("mockstore")
        options.catalogue = directory.file("missing.storekit")
        await #expect {
            try await TestStore.start(options)
        } throws: { error in
            guard case TestStoreError.didNotStart(let output) = error else { return false }
            return output.contains("missing.storekit")
        }
    }
}
