import Foundation
import StoreWire
import Testing

@testable import MockStoreTesting

/// Issue 36 items 1 and 2: a `TestStore` from another package finds its binary and catalogue through the checkout it
/// came from, and reaches the Server API through a typed client whose bearer tokens the store checks.
@Suite struct TestStoreServerAPITests {
    static let credit = "ai.voicedebrief.app.credit.500"

    /// A store from the built binary, started in a folder outside the repository with no catalogue named (so the
    /// checkout's is used); or (`.inProcess`, for a test of the typed client rather than of finding the checkout) the
    /// store's code in this process, selling the repository's catalogue.
    private func start(_ run: StoreRun = .inProcess, _ change: (inout TestStore.Options) -> Void = { _ in })
        async throws -> TestStore
    {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        var options = TestStore.Options()
        try options.run(run)
        if run == .binary {
            options.workingDirectory = directory.path
        } else {
            options.catalogue = Repository.catalogue
        }
        options.processEnvironment = ProcessInfo.processInfo.environment.filter { $0.key != "MOCKSTORE_CATALOGUE" }
        change(&options)
        return try await TestStore.start(options)
    }
}

extension TestStoreServerAPITests {
    @Test func theCheckoutIsTheRepositoryWithItsBinaryAndCatalogue() throws {
        let root = try #require(Checkout.root)
        #expect(URL(fileURLWithPath: root).resolvingSymlinksInPath().path == Repository.root)
        #expect(Checkout.catalogue == root + "/Catalogue/Credit.storekit")
        let places = StoreBinary.candidates(nil)
        #expect(places.contains(root + "/.build/debug/mockstore"))
        #expect(places.contains(root + "/.build/release/mockstore"))
        #expect(CheckoutBuild.command(in: root) == "cd \(root) && swift build --product mockstore")
    }

    @Test func aBuildThatFailedSaysWhatToRun() {
        let error = TestStoreError.binaryNotBuilt(
            command: "cd /src/credit && swift build --product mockstore", why: "the build failed:\nno space left")
        #expect(
            "\(error)"
                == "no mockstore binary, and building it failed: the build failed:\nno space left\nBuild it yourself "
                + "(`cd /src/credit && swift build --product mockstore`) or set MOCKSTORE_BINARY to its path")
    }

    @Test func aStoreStartedOutsideTheRepositoryLoadsTheCheckoutsCatalogue() async throws {
        let store = try await start(.binary)
        let bought = try await store.buy(Self.credit)
        #expect(bought.transaction.productId == Self.credit)
        #expect(await store.stop() == 0)
    }

    @Test func theTypedClientReadsATransactionAndItsHistory() async throws {
        let store = try await start()
        let id = try await store.buy(Self.credit).transaction.transactionId
        let info = try await store.serverAPI.transactionInfo(id)
        #expect(info.signedTransactionInfo.split(separator: ".").count == 3)
        let history = try await store.serverAPI.transactionHistory(id, TransactionHistoryQuery(sort: .descending))
        #expect(history.signedTransactions.count == 1 && history.bundleId == "ai.voicedebrief.app")
        let order = try await store.transactions().first?.orderId ?? ""
        #expect(try await store.serverAPI.lookUpOrder(order).signedTransactions.count == 1)
        try await store.serverAPI.setAppAccountToken(UUID(), originalTransactionId: id)
        let token = UUID()
        try await store.serverAPI.setAppAccountToken(id, token)
        let held = try await store.transactions().first { $0.transactionId == id }?.appAccountToken
        #expect(held == token.uuidString.lowercased(), "the transaction first, as the other calls take it")
        #expect(try await store.serverAPI.appTransactionInfo(id).signedAppTransactionInfo.isEmpty == false)
    }

    @Test func aRefusalIsApplesCodeAsATypedCase() async throws {
        let store = try await start()
        await #expect(
            throws: ServerAPIError.refused(.transactionIdNotFound, status: 404, message: "Transaction id not found.")
        ) {
            _ = try await store.serverAPI.transactionInfo("9999999999")
        }
        let id = try await store.buy(Self.credit).transaction.transactionId
        do {
            _ = try await store.serverAPI.transactionHistory(id, TransactionHistoryQuery(revision: "not a revision"))
            Issue.record("a revision the store never gave is refused")
        } catch {
            let code = error.code
            #expect(code == .invalidRequestRevision && code?.rawValue == 4_000_005)
        }
        do {
            _ = try await store.serverAPI.requestTestNotification()
            Issue.record("a store with no --notify has nowhere to send a test notification")
        } catch {
            #expect(error.code == .serverNotificationURLNotFound)
        }
    }

    @Test func aTokenSignedByAnotherKeyIsRefusedUnlessTheStoreChecksNone() async throws {
        let store = try await start()
        let other = try await start()
        let stranger = ServerAPIClient(
            baseURL: store.url, token: other.apiKey.token(bundleID: other.bundleID), http: store.http)
        await #expect(throws: ServerAPIError.unauthorized) {
            _ = try await stranger.lookUpOrder("MOCK00000001")
        }
        let unchecked = try await start { $0.bearerTokens = .withoutOwnKey }
        let anyKey = ServerAPIClient(
            baseURL: unchecked.url, token: other.apiKey.token(bundleID: other.bundleID), http: unchecked.http)
        #expect(try await anyKey.lookUpOrder("MOCK00000001").status == .invalid)
    }

    @Test func aStoreOfAnotherBundleIdSignsAndChecksThatOne() async throws {
        let store = try await start { $0.bundleID = "com.example.app" }
        let id = try await store.buy(Self.credit).transaction.transactionId
        #expect(try await store.serverAPI.transactionHistory(id).bundleId == "com.example.app")
    }

    /// One call of each endpoint the typed client has not met above, each answered with its type.
    @Test func everyOtherEndpointIsOneTypedCall() async throws {
        let store = try await start { $0.catalogue = Repository.root + "/Tests/Fixtures/Subscriptions.storekit" }
        let api = store.serverAPI
        let coins = try await store.buy("com.example.coins").transaction.transactionId
        let monthly = try await store.buy("com.example.pro.monthly").transaction
        #expect(try await api.transactionHistory(coins, version: .v1).signedTransactions.count == 2)
        let consumption = ConsumptionRequestBody(
            customerConsented: true, sampleContentProvided: false, deliveryStatus: .delivered,
            consumptionPercentage: 25_000)
        try await api.sendConsumptionInformation(coins, consumption)
        do {
            try await api.sendConsumptionInformation(coins, .object(["customerConsented": .bool(false)]), version: .v1)
            Issue.record("a v1 body without Apple's fields is refused")
        } catch {
            #expect(error.code == .invalidCustomerConsented || error.code == .invalidConsumptionStatus)
        }
        #expect(try await store.consumption().count == 1)
        try await api.finishTransaction(coins)
        let statuses = try await api.subscriptionStatuses(monthly.transactionId, statuses: [.active])
        #expect(statuses.data.count == 1)
        let oneMore = ExtendRenewalDateRequestBody(
            extendByDays: 7, extendReasonCode: .customerSatisfaction, requestIdentifier: "one")
        #expect(try await api.extendRenewalDate(monthly.originalTransactionId, oneMore).success)
        let mass = MassExtendRenewalDateRequestBody(
            extendByDays: 1, extendReasonCode: .serviceIssueOrOutage, requestIdentifier: "all",
            productId: "com.example.pro.monthly")
        #expect(try await api.massExtendRenewalDate(mass).requestIdentifier == "all")
        let status = try await api.massExtensionStatus(productId: "com.example.pro.monthly", requestIdentifier: "all")
        #expect(status.requestIdentifier == "all")
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let history = try await api.notificationHistory(
            NotificationHistoryRequestBody(startDate: now - 3_600_000, endDate: now, transactionId: coins))
        #expect(history.notificationHistory.count >= 1)
        await #expect(
            throws: ServerAPIError.refused(
                .testNotificationNotFound, status: 404, message: "Test notification not found.")
        ) {
            _ = try await api.testNotificationStatus("no-such-token")
        }
    }

    /// Every error code a Server API endpoint declares, and those any endpoint may answer, is a case.
    @Test func everyDeclaredErrorCodeIsACase() {
        let declared: [Set<StoreErrorCode>] = [
            ServerAPI.transactionInfo.errors, ServerAPI.appTransactionInfo.errors, ServerAPI.setAppAccountToken.errors,
            ServerAPI.notificationHistory.errors, ServerAPI.historyV1.errors, ServerAPI.history.errors,
            ServerAPI.refundHistory.errors, ServerAPI.lookUpOrder.errors, ServerAPI.sendConsumptionV1.errors,
            ServerAPI.sendConsumption.errors, ServerAPI.finishTransaction.errors,
            ServerAPI.requestTestNotification.errors, ServerAPI.testNotificationStatus.errors,
            ServerAPI.subscriptionStatuses.errors, ServerAPI.extendRenewalDate.errors,
            ServerAPI.massExtendRenewalDate.errors, ServerAPI.massExtensionStatus.errors, StoreErrorCode.anyEndpoint,
        ]
        let missing = declared.reduce(Set<StoreErrorCode>()) { $0.union($1) }.filter { !$0.isRecognized }
        #expect(missing.isEmpty, "codes with no case: \(missing.map(\.rawValue).sorted())")
    }
}
