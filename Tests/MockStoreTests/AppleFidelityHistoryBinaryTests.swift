import Foundation
import FoundationNetworking
import Signing
import StoreKitCatalogue
import StoreTestControls
import StoreWire
import Testing

/// Issue 15 through the real binary, continued: Get Notification History, environments and receivers, the
/// transaction history's versions, storefronts, StoreKit's own semantics and `control locale`.
extension AppleFidelityBinaryTests {
    @Test func notificationHistoryFiltersPagesAndRefusesBadRequestsAsApple() async throws {
        let store = try await start()
        let root = try await root(store)
        var ids: [String] = []
        for _ in 0..<21 {
            await ids.append(
                try store.testStore.buy(Self.consumable).transaction.transactionId)
        }
        _ = try await store.testStore.refund(ids[0])
        let first = try await history(store, "{\(lastHour)}")
        #expect(first.status == 200 && first.contentType == "application/json")
        let page1 = try first.decoded(NotificationHistoryResponseBody.self)
        #expect(page1.notificationHistory.count == 20 && page1.hasMore)
        let paginationToken = try #require(page1.paginationToken)
        let page2 = try await history(store, "{\(lastHour)}", token: paginationToken)
            .decoded(NotificationHistoryResponseBody.self)
        #expect(page2.notificationHistory.count == 2 && !page2.hasMore && page2.paginationToken == nil)
        let types = try (page1.notificationHistory + page2.notificationHistory).map {
            try verifiedES256Payload($0.signedPayload, as: NotificationPayload.self, root: root).notificationType
        }
        #expect(types == Array(repeating: .oneTimeCharge, count: 21) + [.refund])
        #expect(page1.notificationHistory.allSatisfy { $0.sendAttempts.isEmpty }, "no --notify: never tried")

        let refunds = try await history(store, #"{\#(lastHour), "notificationType": "REFUND"}"#)
            .decoded(NotificationHistoryResponseBody.self)
        #expect(refunds.notificationHistory.count == 1)
        let customer = try await history(store, #"{\#(lastHour), "transactionId": "\#(ids[3])"}"#)
            .decoded(NotificationHistoryResponseBody.self)
        #expect(customer.notificationHistory.count == 20 && customer.hasMore, "the one customer's notifications")
        let failures = try await history(store, #"{\#(lastHour), "onlyFailures": true}"#)
            .decoded(NotificationHistoryResponseBody.self)
        #expect(failures.notificationHistory.count == 20, "none reached a server")

        let day: Int64 = 86_400_000
        for (body, code) in [
            (#"{"endDate": \#(now)}"#, 4_000_015),
            (#"{"startDate": \#(now - 1_000)}"#, 4_000_016),
            (#"{"startDate": \#(now), "endDate": \#(now - 1_000)}"#, 4_000_013),
            (#"{"startDate": \#(now), "endDate": \#(now)}"#, 4_000_013),
            (#"{"startDate": \#(now - 31 * day), "endDate": \#(now)}"#, 4_000_012),
            (#"{\#(lastHour), "notificationType": "NOT_A_TYPE"}"#, 4_000_018),
            (#"{\#(lastHour), "notificationSubtype": "INITIAL_BUY"}"#, 4_000_018),
            (#"{\#(lastHour), "notificationType": "REFUND", "notificationSubtype": "INITIAL_BUY"}"#, 4_000_018),
            (#"{\#(lastHour), "notificationType": "REFUND", "transactionId": "\#(ids[0])"}"#, 4_000_019),
            (#"{\#(lastHour), "transactionId": "abc"}"#, 4_000_006),
        ] {
            try expectError(try await history(store, body), status: 400, code: StoreErrorCode(rawValue: code))
        }
        try expectError(
            try await history(store, #"{\#(lastHour), "transactionId": "2000000000000999"}"#), status: 404,
            code: .transactionIdNotFound)
        try expectError(
            try await history(store, "{\(lastHour)}", token: "garbage"), status: 400, code: .invalidPaginationToken)
        #expect(try await store.stop() == 0)
    }

    @Test func theSandboxTriesOnceAndAnyAnswerFrom200To206IsReceived() async throws {
        let receiver = try NotificationReceiver(statuses: [206, 500, 202])
        let store = try await start(["--notify", receiver.url, "--notify-retry-base-ms", "10"])
        for _ in 0..<3 {
            _ = try await store.testStore.buy(Self.consumable)
        }
        try await eventually("three tries") {
            try await notifications(store).allSatisfy { $0.status != .pending } && receiver.bodies.count == 3
        }
        let records = try await notifications(store)
        #expect(records.map(\.status) == [.delivered, .failed, .delivered], "206 and 202 are received")
        #expect(records.map(\.sendAttempts.count) == [1, 1, 1], "the sandbox tries once")
        let failures = try await history(store, #"{\#(lastHour), "onlyFailures": true}"#)
            .decoded(NotificationHistoryResponseBody.self)
        #expect(
            failures.notificationHistory.map { $0.sendAttempts.map(\.sendAttemptResult) }
                == [[.unsuccessfulHttpResponseCode]])
        #expect(try await store.stop() == 0)
    }

    @Test func productionSaysSoAndCarriesAppAppleId() async throws {
        let store = try await start(["--environment", "production", "--app-apple-id", "555"])
        let root = try await root(store)
        let bought = try payload(try await purchase(store, Self.consumable).signedTransaction, root: root)
        #expect(bought.environment == .production)
        let page = try await api(store, "GET", ServerAPI.history.target(.init(transactionId: bought.transactionId)))
            .decoded(HistoryResponseBody.self)
        #expect(page.environment == .production && page.appAppleId == 555)
        let record = try #require(try await notifications(store).first)
        let data = try #require(
            try verifiedES256Payload(record.signedPayload, as: NotificationPayload.self, root: root).data)
        #expect(data.environment == .production && data.appAppleId == 555)
        let app = try verifiedES256Payload(
            try await store.get(DeviceAPI.appTransaction.path()).decoded(SignedAppTransactionBody.self)
                .signedAppTransaction, as: AppTransactionPayload.self, root: root)
        #expect(app.receiptType == .production && app.appAppleId == 555)
        #expect(try await store.stop() == 0)
        await #expect(try MockStoreHarness.startInProcess(["--environment", "staging"]).status == 64)
    }

    @Test func consumptionRequestIsSentForConsumablesOnly() async throws {
        let store = try await start()
        let coins = try await store.testStore.buy(Self.consumable).transaction.transactionId
        let pro = try await store.testStore.buy(Self.nonConsumable).transaction.transactionId
        let season = try await store.testStore.buy(Self.nonRenewing).transaction
            .transactionId
        for id in [coins, pro, season] {
            await #expect(
                try store.testStore.requestRefund(id).transaction.refundRequest
                    == .requested)
        }
        let requests = try await notifications(store).filter { $0.notificationType == .consumptionRequest }
        #expect(requests.map(\.transactionId) == [coins])
        // The others are decided without it.
        await #expect(try store.testStore.refund(pro).transaction.revocationDate != nil)
        await #expect(
            try store.testStore.declineRefund(season).transaction.refundRequest
                == .declined)
        #expect(try await store.stop() == 0)
    }
}

// MARK: Transaction history, storefronts, StoreKit semantics, locale

extension AppleFidelityBinaryTests {
    /// On the shared store, as a customer of its own (the history is the customer's).
    @Test func historyV1LeavesOutFinishedConsumablesAndAFinishMovesNothing() async throws {
        try await MockStoreHarness.withShared(catalogue: try Self.sharedCatalogue()) { store in
            let root = try await root(store)
            let coins = try payload(try await purchase(store, Self.consumable).signedTransaction, root: root)
                .transactionId
            let pro = try payload(try await purchase(store, Self.nonConsumable).signedTransaction, root: root)
                .transactionId
            let before = try await api(store, "GET", ServerAPI.history.target(.init(transactionId: pro))).decoded(
                HistoryResponseBody.self)
            for id in [coins, pro] {
                #expect(try await store.post(DeviceAPI.finish.path(.init(transactionId: id)), json: "{}").status == 200)
            }
            let v2 = try await api(store, "GET", ServerAPI.history.target(.init(transactionId: pro))).decoded(
                HistoryResponseBody.self)
            #expect(try v2.signedTransactions.map { try payload($0, root: root).transactionId } == [coins, pro])
            #expect(v2.revision == before.revision, "a finish changes no place and no revision")
            let descending = try await api(
                store, "GET", ServerAPI.history.target(.init(transactionId: pro, sort: .descending))
            )
            .decoded(HistoryResponseBody.self)
            #expect(
                try descending.signedTransactions.map { try payload($0, root: root).transactionId } == [pro, coins])
            let since = try await api(
                store, "GET", ServerAPI.history.target(.init(transactionId: pro, revision: before.revision))
            )
            .decoded(HistoryResponseBody.self)
            #expect(since.signedTransactions.isEmpty, "finishing is not a change the revision returns")
            let v1 = try await api(store, "GET", ServerAPI.historyV1.target(.init(transactionId: pro))).decoded(
                HistoryResponseBody.self)
            #expect(try v1.signedTransactions.map { try payload($0, root: root).transactionId } == [pro])
        }
    }

    /// On the shared store, as a customer of its own (the storefront is the customer's).
    @Test func everyStorefrontIsKnownAndProductsSayIfTheyAreFamilyShareable() async throws {
        try await MockStoreHarness.withShared(catalogue: try Self.sharedCatalogue()) { store in
            for (code, currency, id) in [("IND", "INR", "143467"), ("BRA", "BRL", "143503"), ("NGA", "NGN", "143561")] {
                let settings = try await store.testStore.setStorefront(code)
                #expect(settings.currency == currency)
                let root = try await root(store)
                let bought = try payload(try await purchase(store, Self.consumable).signedTransaction, root: root)
                #expect(bought.storefront == code && bought.storefrontId == id && bought.currency == currency)
            }
            let products = try await store.get(
                DeviceAPI.products.target(.init(ids: [Self.consumable, Self.nonConsumable, Self.nonRenewing]))
            ).decoded(StoreProductsBody.self).products
            #expect(products.map(\.isFamilyShareable) == [false, true, false])
        }
    }

    @Test func interruptedPurchasesAreCancelledAndALauncherGetsTheUnfinishedOnce() async throws {
        let store = try await start()
        let root = try await root(store)
        let kept = try payload(try await purchase(store, Self.consumable).signedTransaction, root: root)
        let finished = try payload(try await purchase(store, Self.nonRenewing).signedTransaction, root: root)
        #expect(
            try await store.post(DeviceAPI.finish.path(.init(transactionId: finished.transactionId)), json: "{}").status
                == 200
        )
        _ = try await store.testStore.setInterruptedPurchases(true)
        let answer = try await purchase(store, Self.consumable)
        let interrupted = try await #require(
            try store.testStore.transactions().last)
        #expect(interrupted.pendingReason == .interrupted)
        // StoreKit's result, with the mock store's own addition beside it: what it waits for and its id.
        #expect(
            answer
                == PurchaseResponseBody(
                    result: .userCancelled, pendingReason: .interrupted, transactionId: interrupted.transactionId))

        let launch = try await store.get(DeviceAPI.updates.path()).decoded(TransactionUpdatesBody.self)
        #expect(try launch.signedTransactions.map { try payload($0, root: root).transactionId } == [kept.transactionId])
        let next = try await store.get(DeviceAPI.updates.target(.init(after: launch.cursor)))
            .decoded(TransactionUpdatesBody.self)
        #expect(next.signedTransactions.isEmpty, "given once")
        _ = try await store.testStore.resolve(interrupted.transactionId)
        let resolved = try await store.get(DeviceAPI.updates.target(.init(after: launch.cursor)))
            .decoded(TransactionUpdatesBody.self)
        #expect(
            try resolved.signedTransactions.map { try payload($0, root: root).transactionId } == [
                interrupted.transactionId
            ])
        #expect(try await store.stop() == 0)
    }

    @Test func localeMustBeOneTheCatalogueCanServe() async throws {
        let store = try await start()
        await #expect(try store.testStore.setLocale("en_GB").locale == "en_GB")
        let malformed = try await store.control("locale", "en GB!")
        #expect(malformed.status == 64 && malformed.stderr.contains("\"en GB!\""))
        let unserved = try #require(await refusal { try await store.testStore.setLocale("zz") })
        #expect(unserved.message.contains("\"zz\"") && unserved.message.contains("en_US"), "\(unserved.message)")
        let endpoint = try await store.post(TestControls.updateSettings.path(), json: #"{"locale": "fr_FR"}"#)
        try expectError(endpoint, status: 400, code: .generalBadRequest)
        #expect(try endpoint.decoded(StoreErrorBody.self).errorMessage.contains("\"fr_FR\""))
        #expect(try await store.stop() == 0)
    }
}

/// The storefront table is generated from its data file: the two agree, and every storefront is there.
@Suite struct StorefrontTableTests {
    @Test func theTableIsTheDataFile() throws {
        let path = Repository.root + "/MockStore/StoreKitCatalogue/Data/storefronts.tsv"
        let rows = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.isEmpty }
            .map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.map { Storefront(code: $0[0], currency: $0[2], storefrontId: $0[1]) } == Storefront.known)
        #expect(Storefront.known.count >= 175)
        #expect(Set(Storefront.known.map(\.code)).count == Storefront.known.count)
        #expect(Set(Storefront.known.map(\.storefrontId)).count == Storefront.known.count)
        #expect(Storefront.named("gbr") == Storefront(code: "GBR", currency: "GBP", storefrontId: "143444"))
    }
}
