import Foundation
import FoundationNetworking
import Signing
import StoreTestControls
import StoreWire
import Testing

/// The test controls, each through `mockstore control` against the real binary, and the updates feed they feed.
@Suite struct SandboxControlBinaryTests {
    static let credit500 = "ai.voicedebrief.app.credit.500"
    static let credit1000 = "ai.voicedebrief.app.credit.1000"

    let directory: TemporaryDirectory
    var data: String { directory.file("data") }

    init() throws {
        directory = try TemporaryDirectory("mockstore-controls")
    }

    func purchase(_ store: MockStoreHarness, _ product: String = credit500) async throws -> PurchaseResponseBody {
        let response = try await store.post(DeviceAPI.purchase.path(), json: #"{"productId": "\#(product)"}"#)
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        return try response.decoded(PurchaseResponseBody.self)
    }

    func updates(_ store: MockStoreHarness, after cursor: String? = nil) async throws -> TransactionUpdatesBody {
        let response = try await store.get(DeviceAPI.updates.path() + (cursor.map { "?after=\($0)" } ?? ""))
        #expect(response.status == 200)
        #expect(response.contentType == "application/json")
        return try response.decoded(TransactionUpdatesBody.self)
    }

    func payloads(_ signed: [String], root: Certificate) throws -> [SignedTransactionPayload] {
        try signed.map { try verifiedES256Payload($0, as: SignedTransactionPayload.self, root: root) }
    }

    func root(_ store: MockStoreHarness) async throws -> Certificate {
        try Certificate(derRepresentation: try await store.get(SandboxAPI.rootCertificate.path()).body)
    }

    func unfinishedIDs(_ store: MockStoreHarness, root: Certificate) async throws -> [String] {
        let body = try await store.get(DeviceAPI.unfinished.path()).decoded(SignedTransactionsBody.self)
        return try payloads(body.signedTransactions, root: root).map(\.transactionId)
    }

    func expectRefused(
        _ outcome: MockStoreHarness.Outcome, _ text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(outcome.status == 1, "\(outcome.stdout)", sourceLocation: sourceLocation)
        #expect(outcome.stderr.contains(text), "stderr: \(outcome.stderr)", sourceLocation: sourceLocation)
    }
}

// MARK: Ask to Buy, interrupted purchases, outside purchases

extension SandboxControlBinaryTests {
    @Test func askToBuyApprovedReachesTheFeedOnceAndDeclinedNever() async throws {
        let store = try await MockStoreHarness.start(dataDirectory: data)
        let root = try await root(store)
        await #expect(try store.control(TestSettingsBody.self, "ask-to-buy", "on").askToBuyEnabled)
        let first = try await purchase(store)
        let second = try await purchase(store)
        #expect(second.result == .pending)
        let listed = try await store.control(TestTransactionsBody.self, "transactions").transactions
        // Each pending answer names its own waiting transaction (a mock store addition, issue 13).
        #expect(
            first
                == PurchaseResponseBody(
                    result: .pending, pendingReason: .askToBuy, transactionId: listed.first?.transactionId))
        #expect(second.transactionId == listed.last?.transactionId && second.transactionId != first.transactionId)
        #expect(listed.map(\.status) == [.pending, .pending])
        #expect(listed.map(\.pendingReason) == [.askToBuy, .askToBuy])
        #expect(listed.map(\.orderId) == ["MOCK00000001", "MOCK00000002"])
        let (approvedID, declinedID) = (listed[0].transactionId, listed[1].transactionId)
        #expect(try await unfinishedIDs(store, root: root).isEmpty, "pending purchases are not the app's yet")
        let before = try await updates(store)
        #expect(before.signedTransactions.isEmpty)

        let approved = try await store.control(TestTransactionBody.self, "approve", approvedID)
        #expect(approved.transaction.status == .purchased)
        let approvedJWS = try #require(approved.signedTransaction)
        #expect(try payloads([approvedJWS], root: root).first?.transactionId == approvedID)
        let declined = try await store.control(TestTransactionBody.self, "decline", declinedID)
        #expect(declined.transaction.status == .declined)
        #expect(declined.signedTransaction == nil)

        let feed = try await updates(store, after: before.cursor)
        #expect(try payloads(feed.signedTransactions, root: root).map(\.transactionId) == [approvedID])
        #expect(feed.hasMore == false)
        #expect(try await updates(store, after: feed.cursor).signedTransactions.isEmpty, "delivered once")
        #expect(try await unfinishedIDs(store, root: root) == [approvedID], "the declined one is never the app's")

        await expectRefused(try store.control("approve", approvedID), "Cannot approve transaction \(approvedID)")
        await expectRefused(try store.control("decline", declinedID), "it is declined")
        await expectRefused(try store.control("approve", "2000000000000099"), "Transaction id not found.")
        await #expect(try !store.control(TestSettingsBody.self, "ask-to-buy", "off").askToBuyEnabled)
        #expect(try await purchase(store).result == .success)
        #expect(try await store.stop() == 0)
    }

    @Test func interruptedPurchaseIsResolvedIntoTheFeed() async throws {
        let store = try await MockStoreHarness.start(dataDirectory: data)
        let root = try await root(store)
        await #expect(try store.control(TestSettingsBody.self, "interrupted", "on").interruptedPurchasesEnabled)
        // StoreKit 2 reports an interrupted purchase as cancelled (issue 15; it was "pending" before); the
        // transaction reaches the app through the feed once the issue is resolved.
        // Beside it, as a mock store addition, what it waits for and its id: an app can tell it from a real
        // cancellation, and credit it when it completes.
        let answer = try await purchase(store)
        let id = try await #require(try store.control(TestTransactionsBody.self, "transactions").transactions.first)
            .transactionId
        #expect(
            answer == PurchaseResponseBody(result: .userCancelled, pendingReason: .interrupted, transactionId: id))
        let cursor = try await updates(store).cursor
        await expectRefused(try store.control("approve", id), "not waiting for Ask to Buy approval")
        let resolved = try await store.control(TestTransactionBody.self, "resolve", id)
        #expect(resolved.transaction.status == .purchased)
        #expect(
            try payloads(try await updates(store, after: cursor).signedTransactions, root: root).map(\.transactionId)
                == [id])
        await expectRefused(try store.control("resolve", id), "Cannot resolve")
        _ = try await store.control(TestSettingsBody.self, "interrupted", "off")
        #expect(try await purchase(store).result == .success)
        #expect(try await store.stop() == 0)
    }

    @Test func outsidePurchaseReachesTheFeedAndTheUnfinishedList() async throws {
        // A store of two products (the app sells one): the outside purchase is of the other.
        let store = try await MockStoreHarness.start(dataDirectory: data, catalogue: Repository.twoPackCatalogue)
        let root = try await root(store)
        let token = UUID().uuidString.lowercased()
        _ = try await store.control(TestSettingsBody.self, "ask-to-buy", "on")
        let bought = try await store.control(
            TestTransactionBody.self, "buy", Self.credit1000, "--quantity", "2", "--app-account-token", token)
        #expect(bought.transaction.origin == .outside)
        #expect(bought.transaction.status == .purchased, "an outside purchase does not wait for Ask to Buy")
        let boughtJWS = try #require(bought.signedTransaction)
        let payload = try #require(try payloads([boughtJWS], root: root).first)
        #expect(payload.quantity == 2)
        #expect(payload.price == 20_000)
        #expect(payload.appAccountToken == token)
        #expect(
            try payloads(try await updates(store).signedTransactions, root: root).map(\.transactionId) == [
                payload.transactionId
            ])
        #expect(try await unfinishedIDs(store, root: root) == [payload.transactionId])
        await expectRefused(try store.control("buy", "no.such.product"), "not in the catalogue")
        #expect(try await store.stop() == 0)
    }
}

// MARK: Refunds

extension SandboxControlBinaryTests {
    /// On the shared store, as a customer of its own: a control given a transaction id acts for its customer.
    @Test func refundSetsTheRevocationAndReachesTheFeedAndReversalClearsIt() async throws {
        try await MockStoreHarness.withShared { store in
            let root = try await root(store)
            let signed = try #require(try await purchase(store).signedTransaction)
            let id = try payloads([signed], root: root)[0].transactionId
            #expect(try await store.post(DeviceAPI.finish.path(.init(transactionId: id)), json: "{}").status == 200)
            let cursor = try await updates(store).cursor

            let refunded = try await store.control(TestTransactionBody.self, "refund", id, "--reason", "1")
            #expect(refunded.transaction.revocationReason == .refundedDueToIssue)
            #expect(refunded.transaction.revocationType == .refundFull)
            let feed = try await updates(store, after: cursor)
            let revoked = try #require(try payloads(feed.signedTransactions, root: root).first)
            #expect(revoked.transactionId == id)
            #expect(revoked.revocationDate != nil)
            #expect(revoked.revocationDate == refunded.transaction.revocationDate)
            #expect(revoked.revocationReason == .refundedDueToIssue)
            #expect(revoked.revocationType == .refundFull)
            #expect(revoked.revocationPercentage == 100_000)
            await expectRefused(try store.control("refund", id), "it is refunded")

            let reinstated = try await store.control(TestTransactionBody.self, "reverse-refund", id)
            #expect(reinstated.transaction.revocationDate == nil)
            let again = try #require(
                try payloads(try await updates(store, after: feed.cursor).signedTransactions, root: root).first)
            #expect(again.transactionId == id)
            #expect(again.revocationDate == nil && again.revocationReason == nil)
            await expectRefused(try store.control("reverse-refund", id), "it is not refunded")
            // A reason Apple does not have is a command-line mistake (issue 35): exit 64, nothing sent.
            let seven = try await store.control("refund", id, "--reason", "7")
            #expect(seven.status == 64 && seven.stderr.contains("--reason \"7\" is not a revocationReason"))
        }
    }

    @Test func refundRequestIsDeclinedOrGranted() async throws {
        let store = try await MockStoreHarness.start(dataDirectory: data)
        _ = try await purchase(store)
        let id = try await #require(try store.control(TestTransactionsBody.self, "transactions").transactions.first)
            .transactionId
        await expectRefused(try store.control("decline-refund", id), "No refund of transaction \(id) is waiting")
        let requested = try await store.control(
            TestTransactionBody.self, "request-refund", id, "--reason", "FULFILLMENT_ISSUE")
        #expect(requested.transaction.refundRequest == .requested)
        await expectRefused(try store.control("request-refund", id), "already requested")
        await #expect(
            try store.control(TestTransactionBody.self, "decline-refund", id).transaction.refundRequest == .declined)
        await #expect(
            try store.control(TestTransactionsBody.self, "transactions").transactions.first?.revocationDate == nil,
            "a declined refund request leaves the transaction paid")
        _ = try await store.control(TestTransactionBody.self, "request-refund", id)
        let granted = try await store.control(TestTransactionBody.self, "refund", id)
        #expect(granted.transaction.refundRequest == .granted)
        #expect(granted.transaction.revocationReason == .refundedForOtherReason)
        // An unknown reason is a command-line mistake (issue 35): exit 64, nothing sent.
        let bored = try await store.control("request-refund", id, "--reason", "BORED")
        #expect(bored.status == 64 && bored.stderr.contains("\"BORED\" is not one of UNINTENDED_PURCHASE"))
        let kinds = try await store.control(TestNotificationsBody.self, "notifications").notifications.map(
            \.notificationType)
        // The purchase itself is announced by ONE_TIME_CHARGE (issue 15).
        #expect(
            kinds == [.oneTimeCharge, .consumptionRequest, .refundDeclined, .consumptionRequest, .refund])
        await #expect(
            try store.control(TestNotificationsBody.self, "notifications").notifications.allSatisfy {
                $0.status == .unsent && $0.sendAttempts.isEmpty
            }, "no --notify: recorded, not sent")
        #expect(try await store.stop() == 0)
    }
}

// MARK: Failures

extension SandboxControlBinaryTests {
    /// Checks a simulated failure's answer; `setBy`, when given, is what its message must say set it.
    func expectSimulated(
        _ response: MockStoreHarness.Response, api: StoreKitAPI, error: String, skErrorCode: Int?, setBy: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(response.status == 503, sourceLocation: sourceLocation)
        #expect(response.contentType == "application/json", sourceLocation: sourceLocation)
        let body = try response.decoded(SimulatedErrorBody.self)
        #expect(body.errorCode == .simulatedStoreKitError, sourceLocation: sourceLocation)
        #expect(body.api == api, sourceLocation: sourceLocation)
        #expect(body.storeKitError.rawValue == error && body.storeKitError.isRecognized, sourceLocation: sourceLocation)
        #expect(body.skErrorCode == skErrorCode, sourceLocation: sourceLocation)
        #expect(body.errorMessage.contains(error), sourceLocation: sourceLocation)
        if let setBy {
            #expect(body.errorMessage.contains("(\(setBy))"), "\(body.errorMessage)", sourceLocation: sourceLocation)
        }
    }

    @Test func eachAPIFailsWithTheStoreKitErrorOnceOrUntilCleared() async throws {
        let store = try await MockStoreHarness.start(dataDirectory: data)
        let root = try await root(store)
        let products = DeviceAPI.products.target(.init(ids: [Self.credit500]))

        let set = try await store.control(
            TestFailuresBody.self, "fail", "purchase", "--error", "purchaseNotAllowed", "--once")
        #expect(
            set.failures == [
                TestFailure(
                    api: .purchase, error: .purchase(.purchaseNotAllowed), once: true, source: .control)
            ])
        let buy = #"{"productId": "\#(Self.credit500)"}"#
        try expectSimulated(
            try await store.post(DeviceAPI.purchase.path(), json: buy), api: .purchase,
            error: "Product.PurchaseError.purchaseNotAllowed", skErrorCode: 4)
        #expect(try await purchase(store).result == .success, "once: the next call works")

        _ = try await store.control(
            TestFailuresBody.self, "fail", "purchase", "--error", "SKError.Code.paymentNotAllowed")
        for _ in 0..<2 {
            try expectSimulated(
                try await store.post(DeviceAPI.purchase.path(), json: buy), api: .purchase,
                error: "SKError.Code.paymentNotAllowed", skErrorCode: 4)
        }
        _ = try await store.control(TestFailuresBody.self, "fail", "purchase", "--error", "StoreKitError.userCancelled")
        #expect(try await purchase(store) == PurchaseResponseBody(result: .userCancelled), "a result, not an error")
        _ = try await store.control(TestFailuresBody.self, "clear-failure", "purchase")

        _ = try await store.control(
            TestFailuresBody.self, "fail", "loadProducts", "--error", "StoreKitError.networkError")
        try expectSimulated(
            try await store.get(products), api: .loadProducts, error: "StoreKitError.networkError", skErrorCode: 0)
        try expectSimulated(
            try await store.get(products), api: .loadProducts, error: "StoreKitError.networkError", skErrorCode: 0)
        _ = try await store.control(TestFailuresBody.self, "clear-failure", "loadProducts")
        #expect(try await store.get(products).status == 200)

        _ = try await store.control(TestFailuresBody.self, "fail", "appStoreSync", "--error", "systemError", "--once")
        try expectSimulated(
            try await store.get(DeviceAPI.unfinished.path()), api: .appStoreSync,
            error: "StoreKitError.systemError", skErrorCode: 0)
        _ = try await store.control(TestFailuresBody.self, "fail", "appStoreSync", "--error", "notEntitled", "--once")
        try expectSimulated(
            try await store.get(DeviceAPI.updates.path()), api: .appStoreSync,
            error: "StoreKitError.notEntitled", skErrorCode: nil)
        let ids = try await unfinishedIDs(store, root: root)
        #expect(ids.count == 1)

        _ = try await store.control(TestFailuresBody.self, "fail", "finish", "--error", "unknown", "--once")
        try expectSimulated(
            try await store.post(DeviceAPI.finish.path(.init(transactionId: ids[0])), json: "{}"), api: .finish,
            error: "StoreKitError.unknown", skErrorCode: 0)
        #expect(try await store.post(DeviceAPI.finish.path(.init(transactionId: ids[0])), json: "{}").status == 200)

        _ = try await store.control(
            TestFailuresBody.self, "fail", "verification", "--error", "invalidSignature", "--once")
        let tampered = try #require(try await purchase(store).signedTransaction)
        #expect(throws: SigningError.self) { try payloads([tampered], root: root) }
        _ = try payloads([try #require(try await purchase(store).signedTransaction)], root: root)
        _ = try await store.control(
            TestFailuresBody.self, "fail", "verification", "--error", "invalidEncoding", "--once")
        let garbled = try #require(try await purchase(store).signedTransaction)
        #expect(throws: SigningError.self) { try CompactJWS.parse(garbled) }

        // An error or API that does not exist is a command-line mistake (issue 35): exit 64, nothing sent.
        let wrongError = try await store.control("fail", "purchase", "--error", "invalidCertificateChain")
        #expect(wrongError.status == 64, "\(wrongError.stderr)")
        #expect(wrongError.stderr.contains("\"invalidCertificateChain\" is not an error purchase can fail with"))
        let wrongAPI = try await store.control("fail", "checkout", "--error", "unknown")
        #expect(wrongAPI.status == 64 && wrongAPI.stderr.contains("\"checkout\" is not an API"), "\(wrongAPI.stderr)")
        _ = try await store.control(TestFailuresBody.self, "fail", "loadProducts", "--error", "unsupported")
        _ = try await store.control(TestFailuresBody.self, "fail", "finish", "--error", "notAvailableInStorefront")
        await #expect(
            try store.control(TestFailuresBody.self, "failures").failures.map(\.api) == [.loadProducts, .finish])
        await #expect(try store.control(TestFailuresBody.self, "clear-failure").failures.isEmpty)
        #expect(try await store.get(products).status == 200)
        #expect(try await store.stop() == 0)
    }

    @Test func catalogueSettingsAreTheDefaultsAndResetRestoresThem() async throws {
        let file = try Data(contentsOf: URL(fileURLWithPath: Repository.catalogue))
        var object = try #require(try JSONSerialization.jsonObject(with: file) as? [String: Any])
        object["settings"] = [
            "_askToBuyEnabled": true, "_failTransactionsEnabled": true, "_locale": "en_US", "_storefront": "USA",
            "_storeKitErrors": [
                ["current": ["index": 2, "type": "generic"], "enabled": true, "name": "Load Products"],
                ["current": NSNull(), "enabled": false, "name": "App Store Sync"],
            ],
        ]
        let text = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        let catalogue = try directory.write(text, to: "settings.storekit")
        let store = try await MockStoreHarness.start(dataDirectory: data, catalogue: catalogue)

        let defaults = try await store.control(TestSettingsBody.self, "settings")
        #expect(defaults.askToBuyEnabled)
        #expect(!defaults.interruptedPurchasesEnabled)
        #expect(defaults.storefront == "USA" && defaults.currency == "USD" && defaults.locale == "en_US")
        #expect(
            defaults.failures == [
                TestFailure(api: .loadProducts, error: .storeKit(.networkError), once: false, source: .catalogue),
                TestFailure(api: .purchase, error: .skError(.unknown), once: false, source: .catalogue),
            ])
        // Each says the catalogue file set it (a test that set nothing knows where to look), never a test control.
        try expectSimulated(
            try await store.get(DeviceAPI.products.target(.init(ids: [Self.credit500]))), api: .loadProducts,
            error: "StoreKitError.networkError", skErrorCode: 0,
            setBy: "set by the catalogue file's StoreKit errors, _storeKitErrors")
        try expectSimulated(
            try await store.post(DeviceAPI.purchase.path(), json: #"{"productId": "\#(Self.credit500)"}"#),
            api: .purchase, error: "SKError.Code.unknown", skErrorCode: 0,
            setBy: "set by the catalogue file's _failTransactionsEnabled")
        _ = try await store.control(TestFailuresBody.self, "fail", "purchase", "--error", "networkError", "--once")
        try expectSimulated(
            try await store.post(DeviceAPI.purchase.path(), json: #"{"productId": "\#(Self.credit500)"}"#),
            api: .purchase, error: "StoreKitError.networkError", skErrorCode: 0, setBy: "set by a test control")

        _ = try await store.control(TestFailuresBody.self, "clear-failure")
        _ = try await store.control(TestSettingsBody.self, "ask-to-buy", "off")
        let changed = try await store.control(TestSettingsBody.self, "storefront", "gbr")
        #expect(changed.storefront == "GBR" && changed.currency == "GBP")
        await #expect(try store.control(TestSettingsBody.self, "locale", "en_GB").locale == "en_GB")
        let products = try await store.get(DeviceAPI.products.target(.init(ids: [Self.credit500])))
            .decoded(StoreProductsBody.self).products
        #expect(products.map(\.displayPrice) == ["£5.00"])
        #expect(try await purchase(store).result == .success)

        await #expect(try store.control("reset").status == 0)
        await #expect(try store.control(TestSettingsBody.self, "settings") == defaults, "back to the catalogue's")
        await #expect(try store.control(TestTransactionsBody.self, "transactions").transactions.isEmpty)
        #expect(try await store.stop() == 0)
    }

    @Test func storefrontAndLocaleChangePricesAndNewTransactions() async throws {
        let store = try await MockStoreHarness.start(dataDirectory: data)
        let root = try await root(store)
        let settings = try await store.control(TestSettingsBody.self, "storefront", "USA")
        #expect(settings.currency == "USD")
        _ = try await store.control(TestSettingsBody.self, "locale", "en_US")
        let products = try await store.get(DeviceAPI.products.target(.init(ids: [Self.credit500])))
            .decoded(StoreProductsBody.self).products
        #expect(products.map(\.displayPrice) == ["$5.00"])
        #expect(products.map(\.currency) == ["USD"])
        let payload = try payloads([try #require(try await purchase(store).signedTransaction)], root: root)[0]
        #expect(payload.storefront == "USA" && payload.storefrontId == "143441" && payload.currency == "USD")
        let unknownStorefront = try await store.control("storefront", "XYZ")
        #expect(unknownStorefront.status == 64, "an unknown storefront is a usage error: \(unknownStorefront.stderr)")
        await #expect(try store.control("locale", "en GB!").status == 64, "a malformed locale is a usage error")
        await expectRefused(try store.control("locale", "zz"), "cannot serve locale \"zz\"")
        #expect(try await store.stop() == 0)
    }
}

// MARK: Setup controls and the command itself

extension SandboxControlBinaryTests {
    @Test func deleteClearAndResetNeverReuseIds() async throws {
        let store = try await MockStoreHarness.start(dataDirectory: data)
        _ = try await purchase(store)
        _ = try await purchase(store)
        let ids = try await store.control(TestTransactionsBody.self, "transactions").transactions.map(\.transactionId)
        #expect(ids == ["2000000000000001", "2000000000000002"])
        await #expect(try store.control("delete", ids[0]).status == 0)
        await #expect(
            try store.control(TestTransactionsBody.self, "transactions").transactions.map(\.transactionId) == [ids[1]])
        await expectRefused(try store.control("delete", ids[0]), "Transaction id not found.")
        _ = try await store.control(TestSettingsBody.self, "storefront", "USA")
        await #expect(try store.control("clear").status == 0)
        await #expect(try store.control(TestTransactionsBody.self, "transactions").transactions.isEmpty)
        await #expect(try store.control(TestSettingsBody.self, "settings").storefront == "USA", "clear keeps settings")
        #expect(
            try await store.get(DeviceAPI.updates.path()).decoded(TransactionUpdatesBody.self)
                .signedTransactions.isEmpty)
        await #expect(try store.control("reset").status == 0)
        await #expect(
            try store.control(TestSettingsBody.self, "settings").storefront == "GBR", "reset restores the catalogue's")
        _ = try await purchase(store)
        let after = try await store.control(TestTransactionsBody.self, "transactions").transactions
        #expect(after.map(\.transactionId) == ["2000000000000003"], "ids are never reused")
        #expect(after.map(\.orderId) == ["MOCK00000003"])
        #expect(try await store.stop() == 0)
    }

    @Test func updatesCursorIsStrictAndSurvivesARestart() async throws {
        var store = try await MockStoreHarness.start(dataDirectory: data)
        _ = try await store.control(TestTransactionBody.self, "buy", Self.credit500)
        let first = try await updates(store)
        #expect(first.signedTransactions.count == 1)
        #expect(try await store.stop() == 0)
        store = try await MockStoreHarness.start(dataDirectory: data)
        #expect(try await updates(store, after: first.cursor).signedTransactions.isEmpty)
        _ = try await store.control(TestTransactionBody.self, "buy", Self.credit500)
        #expect(try await updates(store, after: first.cursor).signedTransactions.count == 1)
        #expect(
            try await updates(store, after: "999999").signedTransactions.count == 2, "a cursor from wiped data restarts"
        )
        let bad = try await store.get(DeviceAPI.updates.target(.init(after: "abc")))
        #expect(bad.status == 400)
        #expect(try bad.decoded(StoreErrorBody.self).errorCode == .generalBadRequest)
        #expect(try await store.stop() == 0)
    }

    @Test func controlCommandUsageErrorsAndUnreachableStore() async throws {
        let noURL = try await MockStoreHarness.controlInProcess(["control", "transactions"])
        #expect(noURL.status == 64)
        #expect(noURL.stderr.contains("needs --url URL"))
        let unknown = try await MockStoreHarness.controlInProcess(["control", "--url", "http://127.0.0.1:9", "explode"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown control command \"explode\""))
        let badId = try await MockStoreHarness.controlInProcess([
            "control", "--url", "http://127.0.0.1:9", "refund", "12ab",
        ])
        #expect(badId.status == 64)
        let down = try await MockStoreHarness.controlInProcess([
            "control", "--url", "http://127.0.0.1:9", "transactions",
        ])
        #expect(down.status == 1)
        #expect(down.stderr.contains("cannot reach the store"))
        let help = try await MockStoreHarness.controlInProcess(["control", "--help"])
        #expect(help.status == 0)
        for command in [
            "reset", "clear", "transactions", "delete", "buy", "ask-to-buy", "approve", "decline", "interrupted",
            "resolve", "refund", "request-refund", "decline-refund", "reverse-refund", "storefront", "locale",
            "settings", "fail", "clear-failure", "failures", "consumption", "notifications",
        ] {
            #expect(help.stdout.contains("  \(command)"), "control --help lists \(command)")
        }
    }
}
