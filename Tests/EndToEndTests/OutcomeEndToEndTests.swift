import Foundation
import StoreWire
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Money outcomes that tell the truth (issue 13), through the real `credit` and `mockstore` binaries: a finish that
/// fails after payment, a purchase that gets no answer, every Ask to Buy request on its own line, receipts from the
/// right environment only, and no source location or framework error code in any message.
@Suite struct OutcomeEndToEndTests {
    let home: TemporaryDirectory
    let data: DataDirectory
    /// Every message `credit` printed in a test, for the check that none leaks internals.
    let said = Said()

    final class Said: @unchecked Sendable {
        var text = ""
    }

    init() throws {
        home = try TemporaryDirectory(prefix: "outcomes-e2e")
        data = try DataDirectory()
    }

    func startStore(_ arguments: [String] = [], name: String = "store") async throws -> StoreProcess {
        try await StoreProcess.start(dataDirectory: home.file(name), arguments: arguments)
    }

    func useStore(_ store: StoreProcess, _ extra: String...) async throws {
        let root = home.file("root-\(UUID().uuidString).der")
        try await store.saveRoot(to: root)
        let result = try await run(
            ["store", "use", "mockstore", "--url", store.url, "--root-certificate", root] + extra)
        #expect(result.status == 0, "\(result)")
    }

    /// Runs `credit` (with a short store timeout) and keeps what it said.
    @discardableResult
    func run(_ arguments: [String], timeout: String = "2") async throws -> CommandResult {
        let result = try await Credit.run(
            arguments, dataDirectory: data.path, now: "2026-11-29T12:00:00.000Z",
            environment: ["CREDIT_STORE_TIMEOUT": timeout])
        said.text += result.stdout + result.stderr
        return result
    }

    func transactions(_ store: StoreProcess) async throws -> [TestTransaction] {
        try await store.store.transactions()
    }

    func topUps() async throws -> [[String: Any]] {
        try await data.ok("entries", "--json").jsonArray().filter { $0["kind"] as? String == "topup" }
    }

    /// Nothing `credit` said shows a source location or a Foundation error code.
    func expectNoInternals(sourceLocation: SourceLocation = #_sourceLocation) {
        for leak in [".swift:", "NSURLErrorDomain", "Error Domain=", "X509_V_ERR"] {
            #expect(!said.text.contains(leak), "\(leak) in: \(said.text)", sourceLocation: sourceLocation)
        }
    }
}

extension OutcomeEndToEndTests {
    @Test func aFinishThatFailsAfterPaymentIsATopUpFinishedByTheNextCollect() async throws {
        let store = try await startStore()
        try await useStore(store)
        try await store.store.fail(.finish, with: .storeKit(.networkError))
        let topup = try await run(["topup"])
        #expect(topup.status == 0, "\(topup)")
        #expect(topup.stdout.contains("Topped up £5.00"), "\(topup)")
        #expect(topup.stdout.contains("the store will be told it was delivered later"), "\(topup)")
        #expect(topup.stdout.contains("Balance £10.00"), "\(topup)")
        await #expect(try data.balance() == 10_000_000)
        let paid = try await #require(try transactions(store).first)
        #expect(!paid.finished)

        // Still failing: a collect credits nothing again.
        _ = try await run(["collect"])
        await #expect(try data.balance() == 10_000_000)
        try await store.store.clearFailures()
        let collect = try await run(["collect", "--json"])
        #expect(collect.status == 0, "\(collect)")
        #expect(int64(try collect.jsonObject()["alreadyCredited"]) == 1)
        await #expect(try transactions(store).first?.finished == true)
        await #expect(try data.balance() == 10_000_000)
        await #expect(try topUps().count == 1)
        await #expect(try data.ok("verify").status == 0)
        expectNoInternals()
    }

    @Test func aFinishThatFailsIsSaidInJSONToo() async throws {
        let store = try await startStore()
        try await useStore(store)
        try await store.store.fail(.finish, with: .storeKit(.unknown))
        let topup = try await run(["topup", "--json"])
        #expect(topup.status == 0, "\(topup)")
        let object = try topup.jsonObject()
        #expect(object["result"] as? String == "credited")
        #expect(object["finished"] as? Bool == false)
        #expect(object["finishProblem"] as? String != nil)
        expectNoInternals()
    }

    @Test func aPurchaseThatGetsNoAnswerMayHaveGoneThroughAndIsCreditedOnceLater() async throws {
        let store = try await startStore()
        // In front of the store, one that makes each purchase there and then never answers: paid, and no answer
        // within the timeout.
        let port = store.store.port
        let silent = try ScriptedHTTPServer { request in
            guard request.path == DeviceAPI.purchase.path() else {
                return ScriptedStoreAnswers.afterTheProductList(request, .whole(status: 404, body: "{}"))
            }
            let body = #"{"productId":"ai.voicedebrief.app.credit.500"}"#
            let purchase =
                "POST \(DeviceAPI.purchase.path()) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
            _ = try? RawHTTP.exchange(Array(purchase.utf8), port: port)
            return .dribble(body: String(repeating: " ", count: 300), every: 0.2)
        }
        defer { silent.stop() }
        let root = home.file("root-silent.der")
        try await store.saveRoot(to: root)
        await #expect(
            try run(["store", "use", "mockstore", "--url", silent.url, "--root-certificate", root]).status == 0)
        let topup = try await run(["topup"], timeout: "1")
        #expect(topup.status == 1, "\(topup)")
        #expect(topup.stderr.contains("The purchase of £5 of credit may have gone through"), "\(topup)")
        #expect(!topup.stderr.contains("ai.voicedebrief.app.credit.500"), "the pack by its name: \(topup)")
        #expect(topup.stderr.contains("`credit collect`"), "\(topup)")
        #expect(topup.stderr.contains("credit screen"), "\(topup)")
        await #expect(try data.balance() == 5_000_000)
        await #expect(try transactions(store).count == 1, "the purchase was made at the store")

        // The store answers again: the next collect credits the purchase, once.
        try await useStore(store)
        let collect = try await run(["collect"])
        #expect(collect.status == 0, "\(collect)")
        #expect(collect.stdout.contains("Collected £5.00"), "\(collect)")
        _ = try await run(["collect"])
        _ = try await run(["screen"])
        await #expect(try data.balance() == 10_000_000)
        await #expect(try topUps().count == 1)
        await #expect(try transactions(store).first?.finished == true)
        expectNoInternals()
    }

    @Test func aStoreThatIsDownIsSaidInPlainWords() async throws {
        let store = try await startStore()
        let root = home.file("down-root.der")
        try await store.saveRoot(to: root)
        await store.stop()
        let held = try HeldPort()
        let down = held.url
        await #expect(try run(["store", "use", "mockstore", "--url", down, "--root-certificate", root]).status == 0)
        let topup = try await run(["topup"])
        #expect(topup.status == 1)
        #expect(topup.stderr.contains("cannot reach the store"), "\(topup)")
        #expect(topup.stderr.contains("? Nothing was bought."), "one sentence ends, the next begins: \(topup)")
        #expect(!topup.stderr.contains("?."), "no full stop after a question mark: \(topup)")
        #expect(!topup.stderr.contains("may have gone through"), "nothing was sent: \(topup)")
        let screen = try await run(["screen"])
        #expect(screen.status == 0)
        #expect(screen.stdout.contains("The store cannot be reached ("), "\(screen)")
        // Why, once: the network's failure, not "cannot reach the store" again nor collect's own sentence.
        #expect(!screen.stdout.contains("cannot reach the store"), "\(screen)")
        #expect(!screen.stdout.contains("Collecting stopped there"), "\(screen)")
        let collect = try await run(["collect"])
        #expect(collect.status == 1 && collect.stderr.contains("cannot reach the store"), "\(collect)")
        withExtendedLifetime(held) {}
        expectNoInternals()
    }

    @Test func aReceiptThatDoesNotVerifyIsSaidInPlainWords() async throws {
        let store = try await startStore()
        let other = try await startStore(name: "other")
        let root = home.file("other-root.der")
        try await other.saveRoot(to: root)
        await #expect(
            try run(["store", "use", "mockstore", "--url", store.url, "--root-certificate", root]).status == 0)
        let topup = try await run(["topup"])
        #expect(topup.status == 1)
        // Signed under another root than the one pinned: said so, with the way to recover it (issue 25 item 11).
        #expect(topup.stderr.contains("the store's root certificate changed"), "\(topup)")
        #expect(topup.stderr.contains("credit store use mockstore"), "\(topup)")
        #expect(topup.stderr.contains("credit collect"), "\(topup)")
        let collect = try await run(["collect", "--json"])
        #expect(collect.status == 1)
        _ = try await run(["verify"])
        expectNoInternals()
    }
}

extension OutcomeEndToEndTests {
    @Test func twoAskToBuyRequestsAreListedAndApprovedOneAtATime() async throws {
        let store = try await startStore()
        try await useStore(store)
        try await store.store.setAskToBuy(true)
        await #expect(try run(["topup"]).stdout.contains("pending"))
        // The app sells one pack (the owner's note): the second request is for it again, a request of its own.
        await #expect(try run(["topup"]).stdout.contains("pending"))
        let waiting = try await transactions(store).map(\.transactionId)
        try #require(waiting.count == 2)

        let screen = try await run(["screen"])
        #expect(screen.stdout.components(separatedBy: "Pending:").count - 1 == 2, "\(screen)")
        let listed = try await #require(try run(["screen", "--json"]).jsonObject()["pending"] as? [[String: Any]])
        #expect(listed.count == 2)
        // StoreKit's `.pending` names no transaction and no reason: each request is a line of its product.
        #expect(
            listed.compactMap { $0["product"] as? String } == [
                "ai.voicedebrief.app.credit.500", "ai.voicedebrief.app.credit.500",
            ])
        #expect(listed.allSatisfy { $0["date"] is String })

        // The second is approved: it is credited, and one line still waits.
        try await store.store.approve(waiting[1])
        let first = try await run(["screen", "--json"]).jsonObject()
        #expect((first["pending"] as? [[String: Any]])?.count == 1, "\(first)")
        await #expect(try data.balance() == 10_000_000)
        await #expect(try run(["screen"]).stdout.components(separatedBy: "Pending:").count - 1 == 1)

        try await store.store.approve(waiting[0])
        let collect = try await run(["collect"])
        #expect(collect.stdout.contains("Collected £5.00 from transaction \(waiting[0])"), "\(collect)")
        await #expect(try data.balance() == 15_000_000)
        await #expect(!(try run(["screen"]).stdout.contains("Pending:")))
        await #expect((try run(["screen", "--json"]).jsonObject()["pending"] as? [Any])?.isEmpty == true)
        expectNoInternals()
    }

    @Test func twoRequestsForTheSameProductAreTwoLines() async throws {
        let store = try await startStore()
        try await useStore(store)
        try await store.store.setAskToBuy(true)
        _ = try await run(["topup"])
        _ = try await run(["topup"])
        let listed = try await #require(try run(["screen", "--json"]).jsonObject()["pending"] as? [[String: Any]])
        #expect(listed.count == 2)
        let ids = try await transactions(store).map(\.transactionId)
        try #require(ids.count == 2)
        try await store.store.approve(ids[0])
        _ = try await run(["collect"])
        let left = try await run(["screen", "--json"]).jsonObject()["pending"] as? [[String: Any]]
        #expect(left?.count == 1, "the other request still waits: \(String(describing: left))")
        await #expect(try data.balance() == 10_000_000)
    }
}

extension OutcomeEndToEndTests {
    /// The mock store signs Sandbox; a configuration that requires Production refuses its receipts: not credited,
    /// not finished, reported naming both environments, by the top-up and by collect.
    @Test func receiptsFromAnotherEnvironmentAreRefusedAndNotFinished() async throws {
        try await StoreProcess.withShared { store in
            try await useStore(store, "--environment", "production")
            let shown = try await run(["store", "--json"]).jsonObject()
            #expect(shown["environment"] as? String == "Production")
            let topup = try await run(["topup"])
            #expect(topup.status == 1, "\(topup)")
            #expect(topup.stderr.contains("Sandbox") && topup.stderr.contains("Production"), "\(topup)")
            #expect(topup.stderr.contains("not credited and not finished"), "\(topup)")
            let collect = try await run(["collect"])
            #expect(collect.status == 1)
            #expect(collect.stdout.contains("Sandbox") && collect.stdout.contains("Production"), "\(collect)")
            await #expect(try transactions(store).first?.finished == false)
            await #expect(try data.balance() == 5_000_000)
            await #expect(try topUps().filter { $0["reference"] != nil }.isEmpty, "no store top-up was written")
            // Switched back to Sandbox, it is credited once.
            try await useStore(store)
            await #expect(try run(["collect"]).status == 0)
            await #expect(try data.balance() == 10_000_000)
            expectNoInternals()
        }
    }

    /// A store.json written before the field existed keeps working: the mock store's receipts are Sandbox.
    @Test func anOlderStoreConfigurationWithoutAnEnvironmentTakesSandbox() async throws {
        try await StoreProcess.withShared { store in
            try await useStore(store)
            let path = data.path + "/store.json"
            var object = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            object["environment"] = nil
            try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
            await #expect(try run(["store", "--json"]).jsonObject()["environment"] as? String == "Sandbox")
            await #expect(try run(["topup"]).status == 0)
            await #expect(try data.balance() == 10_000_000)
        }
    }

    /// With a mock store that signs Production (`mockstore --environment production`, where that option exists),
    /// a Sandbox configuration refuses its receipts and a Production one credits them.
    @Test
    func aProductionStoreIsRefusedByASandboxConfiguration() async throws {
        let store = try await startStore(["--environment", "production"])
        try await useStore(store)
        let topup = try await run(["topup"])
        #expect(topup.status == 1, "\(topup)")
        #expect(topup.stderr.contains("Production") && topup.stderr.contains("Sandbox"), "\(topup)")
        await #expect(try data.balance() == 5_000_000)
        await #expect(try transactions(store).first?.finished == false)
        try await useStore(store, "--environment", "production")
        await #expect(try run(["collect"]).status == 0)
        await #expect(try data.balance() == 10_000_000)
        expectNoInternals()
    }
}
