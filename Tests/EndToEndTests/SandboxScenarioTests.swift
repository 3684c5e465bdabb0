import Foundation
import Testing

/// The sandbox scenario through the real `credit` and `mockstore` binaries: Ask to Buy, a pending top-up, approval
/// while the app is not running, the credit screen crediting it once, then a refund taken back once.
@Suite struct SandboxScenarioTests {
    let home: TemporaryDirectory
    let data: DataDirectory

    init() throws {
        home = try TemporaryDirectory(prefix: "sandbox-e2e")
        data = try DataDirectory()
    }

    /// Runs `mockstore control --url <store> arguments` and returns its JSON answer.
    @discardableResult
    func control(_ store: StoreProcess, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation)
        throws -> [String: Any]
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try StoreProcess.binary)
        process.arguments = ["control", "--url", store.url] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(
            process.terminationStatus == 0, "mockstore control \(arguments): \(stderr)", sourceLocation: sourceLocation)
        return try #require(
            try JSONSerialization.jsonObject(with: stdout) as? [String: Any], "not JSON: \(stderr)",
            sourceLocation: sourceLocation)
    }

    func entries(kind: String) async throws -> [[String: Any]] {
        try await data.ok("entries", "--json").jsonArray().filter { $0["kind"] as? String == kind }
    }
}

extension SandboxScenarioTests {
    @Test func askToBuyApprovedWhileTheAppIsClosedIsCreditedOnceThenARefundIsTakenBackOnce() async throws {
        let store = try StoreProcess(dataDirectory: home.file("store"))
        let root = home.file("root.der")
        try await store.saveRoot(to: root)
        try await data.ok("store", "use", "mockstore", "--url", store.url, "--root-certificate", root)
        let start = try await data.balance()

        // Ask to Buy on: the top-up waits for a parent.
        #expect(try control(store, "ask-to-buy", "on")["askToBuyEnabled"] as? Bool == true)
        let topup = try await data.ok("topup")
        #expect(topup.stdout.contains("pending"), "\(topup)")
        await #expect(try data.balance() == start)
        let waiting = try await data.ok("screen")
        #expect(waiting.stdout.contains("Pending:"), "\(waiting)")
        #expect(waiting.stdout.contains("Ask to Buy"), "the screen says what it waits for: \(waiting.stdout)")
        #expect(waiting.stdout.contains("a parent or guardian to approve it"), "\(waiting.stdout)")
        await #expect(try data.balance() == start)

        // The app is not running (every `credit` run has ended); the parent approves.
        let pending = try #require((try control(store, "transactions")["transactions"] as? [[String: Any]])?.first)
        #expect(pending["status"] as? String == "pending")
        let id = try #require(pending["transactionId"] as? String)
        #expect(
            (try control(store, "approve", id)["transaction"] as? [String: Any])?["status"] as? String == "purchased")

        // The app opens its credit screen: credited once.
        let credited = try await data.ok("screen")
        #expect(credited.stdout.contains("Collected £5.00 from transaction \(id)"), "\(credited)")
        #expect(!credited.stdout.contains("Pending:"), "the pending purchase is settled: \(credited.stdout)")
        await #expect(try data.balance() == start + 5_000_000)
        try await data.ok("screen")
        try await data.ok("collect")
        await #expect(try data.balance() == start + 5_000_000, "credited once")
        await #expect(try entries(kind: "topup").filter { $0["reference"] as? String == id }.count == 1)
        let finished = try #require((try control(store, "transactions")["transactions"] as? [[String: Any]])?.first)
        #expect(finished["finished"] as? Bool == true)

        // The store refunds it; the next collect takes the credit back, once.
        _ = try control(store, "refund", id)
        let collect = try await data.ok("collect")
        #expect(collect.stdout.contains("The store refunded transaction \(id)"), "\(collect)")
        await #expect(try data.balance() == start)
        let reversals = try await entries(kind: "reversal")
        #expect(reversals.count == 1)
        #expect(reversals.first?["reference"] as? String == id)
        let again = try await data.ok("collect")
        #expect(again.stdout.contains("Nothing to collect."), "\(again)")
        await #expect(try data.balance() == start)
        await #expect(try entries(kind: "reversal").count == 1, "taken back once")
        let verify = try await data.ok("verify", "--json").jsonObject()
        #expect(verify["ok"] as? Bool == true, "\(verify)")
        store.stop()
    }

    @Test func aDeclinedAskToBuyCreditsNothing() async throws {
        let store = try StoreProcess(dataDirectory: home.file("store"))
        let root = home.file("root.der")
        try await store.saveRoot(to: root)
        try await data.ok("store", "use", "mockstore", "--url", store.url, "--root-certificate", root)
        let start = try await data.balance()
        _ = try control(store, "ask-to-buy", "on")
        try await data.ok("topup")
        let pending = try #require((try control(store, "transactions")["transactions"] as? [[String: Any]])?.first)
        let id = try #require(pending["transactionId"] as? String)
        _ = try control(store, "decline", id)
        let collect = try await data.ok("collect")
        // Nothing credited; StoreKit tells the app nothing of a decline, so nothing is said of one.
        #expect(!collect.stdout.contains("Collected"), "\(collect)")
        try await data.ok("screen")
        await #expect(try data.balance() == start)
        await #expect(try entries(kind: "topup").isEmpty, "a declined purchase is never credited")
        store.stop()
    }
}
