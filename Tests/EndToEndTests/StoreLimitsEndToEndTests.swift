import CreditLedger
import Foundation
import Signing
import StoreWire
import Testing

/// A store that dribbles, sends without end, or pages for ever does not hold the real `credit` binary (issue 25,
/// item 6): `CREDIT_STORE_TIMEOUT` bounds each request whole, an answer past 16 MiB is refused as it streams, and the
/// Server API's history stops after 1,000 pages. Against a scripted loopback server; time bounds are generous (they
/// prove it does not hang, not how fast it is).
@Suite struct StoreLimitsEndToEndTests {
    let home: TemporaryDirectory
    let data: DataDirectory

    init() throws {
        home = try TemporaryDirectory(prefix: "store-limits-e2e")
        data = try DataDirectory()
    }

    /// Points `credit` at `server` as its mock store (receipts checked with a shared secret; none will come).
    func use(_ server: ScriptedHTTPServer) async throws {
        let secret = home.file("secret-\(UUID().uuidString)")
        try KeyFile.write(Array("a shared secret".utf8), to: secret)
        try await data.ok("store", "use", "mockstore", "--url", server.url, "--secret-file", secret)
    }

    /// Runs the `credit` binary with `CREDIT_STORE_TIMEOUT=timeout`, and how long it took: the binary, so its time
    /// and memory are its own, not a shared test process's.
    func run(_ arguments: [String], timeout: String) async throws -> (CommandResult, TimeInterval) {
        let started = Date()
        let result = try await Credit.run(
            arguments, dataDirectory: data.path, now: "2026-11-29T12:00:00.000Z",
            environment: ["CREDIT_STORE_TIMEOUT": timeout], binary: true)
        // Until it exited, not until this test resumed on a busy pool.
        return (result, (result.exitedAt ?? Date()).timeIntervalSince(started))
    }

    /// A top-up through the mock store already in the ledger, for `reconcile` to look the history up by.
    func ledgerWithATopUp() async throws {
        try await data.ok("balance")
        let ledger = try Ledger.openSigned(directory: data.path)
        try ledger.append(
            EntryDraft(
                id: EntryDraft.topUpID(store: "mockstore", reference: "2000000000000001"), kind: .topup,
                amount: MicroCredits(5_000_000), reference: "2000000000000001",
                product: "ai.voicedebrief.app.credit.500"))
    }

    /// `credit reconcile` with a new API key.
    func reconcileArguments() throws -> [String] {
        let key = home.file("AuthKey_TESTKEY001.p8")
        try KeyFile.write(Array(try P256PrivateKey.generate().pemRepresentation.utf8), to: key)
        return ["reconcile", "--api-key", "TESTKEY001=\(key)", "--issuer", "issuer-1"]
    }

    /// No source location or framework error code in what `credit` said.
    func expectPlainWords(_ result: CommandResult, sourceLocation: SourceLocation = #_sourceLocation) {
        for leak in [".swift:", "NSURLErrorDomain", "Error Domain=", "-1001"] {
            #expect(!(result.stdout + result.stderr).contains(leak), "\(result)", sourceLocation: sourceLocation)
        }
    }
}

extension StoreLimitsEndToEndTests {
    @Test func aTopUpAgainstADribblingStoreStopsAtTheDeadlineAndMayHaveGoneThrough() async throws {
        // A minute of answer, a byte every 200 ms: an idle timeout of 1 s never fires.
        let server = try ScriptedHTTPServer { request in
            ScriptedStoreAnswers.afterTheProductList(
                request, .dribble(body: String(repeating: " ", count: 300), every: 0.2))
        }
        defer { server.stop() }
        try await use(server)
        let (topup, seconds) = try await run(["topup"], timeout: "1")
        #expect(seconds < 50, "still waiting after \(seconds) s: \(topup)")
        #expect(topup.status == 1, "\(topup)")
        #expect(topup.stderr.contains("may have gone through"), "\(topup)")
        #expect(topup.stderr.contains("did not come whole within 1 second"), "\(topup)")
        #expect(topup.stderr.contains("`credit collect` will credit it, once"), "\(topup)")
        #expect(server.requests.map(\.path) == [DeviceAPI.products.path(), DeviceAPI.purchase.path()])
        await #expect(try data.balance() == 5_000_000)
        expectPlainWords(topup)
    }

    @Test func aTopUpAgainstAnEndlessAnswerIsRefusedAtTheBodyLimitInLittleMemory() async throws {
        let server = try ScriptedHTTPServer { request in ScriptedStoreAnswers.afterTheProductList(request, .endless) }
        defer { server.stop() }
        try await use(server)
        // A deadline far off: only the body limit can stop this one.
        let (topup, seconds) = try await run(["topup"], timeout: "100")
        #expect(seconds < 60, "still reading after \(seconds) s: \(topup)")
        #expect(topup.status == 1, "\(topup)")
        #expect(topup.stderr.contains("may have gone through"), "\(topup)")
        #expect(topup.stderr.contains("was larger than 16 MiB, so it was not read"), "\(topup)")
        let peak = try #require(topup.peakResidentBytes)
        #expect(peak < 200 << 20, "credit grew to \(peak >> 20) MiB")
        // Read past the limit only while the cancelling went through, and dropped: far short of a gigabyte.
        #expect(server.bodyBytesSent < 1 << 30, "\(server.bodyBytesSent) bytes sent")
        expectPlainWords(topup)
    }

    @Test func aCollectAgainstAHugeAnswerSaysSoAndCreditsNothing() async throws {
        let server = try ScriptedHTTPServer { _ in .declared(1 << 30) }
        defer { server.stop() }
        try await use(server)
        let (collect, _) = try await run(["collect"], timeout: "100")
        #expect(collect.status == 1, "\(collect)")
        #expect(
            collect.stderr.contains("was larger than 16 MiB, so it was not read. Collecting stopped there"),
            "\(collect)")
        await #expect(try data.balance() == 5_000_000)
        expectPlainWords(collect)
    }

    @Test func reconcileStopsAtThePageLimitOfAnEndlessHistory() async throws {
        let server = try ScriptedHTTPServer { request in
            let page = Int(request.query["revision"] ?? "0") ?? 0
            return .whole(
                status: 200,
                body: #"{"signedTransactions":[],"revision":"\#(page + 1)","hasMore":true,"bundleId":"b","#
                    + #""environment":"Sandbox"}"#)
        }
        defer { server.stop() }
        try await use(server)
        try await ledgerWithATopUp()
        let (reconcile, seconds) = try await run(try reconcileArguments(), timeout: "5")
        #expect(seconds < 100, "\(reconcile)")
        #expect(reconcile.status == 1, "\(reconcile)")
        #expect(
            reconcile.stderr.contains(
                "the store's transaction history did not end: it still said there was more after 1,000 pages"),
            "\(reconcile)")
        #expect(reconcile.stderr.contains("Nothing was compared, and nothing was changed."), "\(reconcile)")
        #expect(server.requests.count == 1_000)
        expectPlainWords(reconcile)
    }

    @Test func reconcileHasTheStoreTimeoutToo() async throws {
        let server = try ScriptedHTTPServer { _ in .dribble(body: String(repeating: " ", count: 300), every: 0.2) }
        defer { server.stop() }
        try await use(server)
        try await ledgerWithATopUp()
        let (reconcile, seconds) = try await run(try reconcileArguments() + ["--fix"], timeout: "1")
        #expect(seconds < 50, "still waiting after \(seconds) s: \(reconcile)")
        #expect(reconcile.status == 1, "\(reconcile)")
        #expect(reconcile.stderr.contains("did not come whole within 1 second"), "\(reconcile)")
        await #expect(try data.balance() == 10_000_000, "nothing fixed")
        expectPlainWords(reconcile)
    }
}
