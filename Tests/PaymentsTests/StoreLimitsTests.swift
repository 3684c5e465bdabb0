import Foundation
import Payments
import Signing
import StoreTransport
import StoreWire
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Two calls of the device API over the app's store clients' HTTP path (URLSession, as the Server API client sends).
struct DeviceProbe {
    let http: StoreHTTP
    let timeout: TimeInterval

    func unfinished() async throws -> [String] {
        let request = http.request(DeviceAPI.unfinished, NoParameters())
        let body: SignedTransactionsBody = try await decoded(request)
        return body.signedTransactions
    }

    func purchase(_ productID: String, appAccountToken: UUID?) async throws -> PurchaseResponseBody {
        let body = try JSONEncoder().encode(PurchaseRequestBody(productId: productID))
        return try await decoded(http.request(DeviceAPI.purchase, NoParameters(), body: body))
    }

    private func decoded<Response: Decodable>(_ request: URLRequest) async throws -> Response {
        let url = request.url ?? http.baseURL
        let data = try await http.data(for: request) { TransportFailure.storeError($0, url: url, timeout: timeout) }
        return try StoreHTTP.decode(data, url)
    }
}

/// The store clients' limits (issue 25, item 6), against a scripted loopback server: a deadline for the whole request
/// that a body sent a byte at a time cannot stretch, a body limit that refuses a huge answer while it streams, and a
/// page limit (with a revision that must move on) for the Server API's transaction history. Which limit stopped a
/// request is read from its error, never from a clock (a deadline far off where only the body limit may stop it).
@Suite struct StoreLimitsTests {
    static let unfinished = #"{"signedTransactions":[]}"#

    func client(_ server: ScriptedHTTPServer, timeout: TimeInterval = 1, bodyLimit: Int? = nil) throws
        -> DeviceProbe
    {
        DeviceProbe(
            http: StoreHTTP(
                baseURL: try #require(URL(string: server.url)), timeout: timeout,
                bodyLimit: bodyLimit ?? StoreHTTP.defaultBodyLimit),
            timeout: timeout)
    }

    func serverAPI(_ server: ScriptedHTTPServer, timeout: TimeInterval = 10, pageLimit: Int = 1_000) throws
        -> AppStoreServerAPIClient
    {
        let token = ServerAPIToken(
            keyID: "KEY", issuerID: "issuer", bundleID: "ai.voicedebrief.app", key: try P256PrivateKey.generate())
        return AppStoreServerAPIClient(
            baseURL: try #require(URL(string: server.url)), token: token, timeout: timeout, pageLimit: pageLimit)
    }

    /// A history page: no transactions, `revision`, `hasMore`.
    static func page(revision: String, hasMore: Bool) -> ScriptedHTTPServer.Reply {
        .whole(
            status: 200,
            body: #"{"signedTransactions":[],"revision":"\#(revision)","hasMore":\#(hasMore),"bundleId":"b","#
                + #""environment":"Sandbox"}"#)
    }

    /// What `body` threw, as a ``StoreError``.
    func storeError(_ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async
        -> StoreError?
    {
        do {
            try await body()
            Issue.record("no error", sourceLocation: sourceLocation)
            return nil
        } catch let error as StoreError {
            return error
        } catch {
            Issue.record("not a StoreError: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }
}

extension StoreLimitsTests {
    @Test func aDribbledAnswerIsCutOffAtTheWholeRequestDeadline() async throws {
        // 300 bytes, one every 200 ms: a minute of answer, each byte well inside an idle timeout of 1 s.
        let server = try ScriptedHTTPServer { _ in
            .dribble(body: Self.unfinished + String(repeating: " ", count: 275), every: 0.2)
        }
        defer { server.stop() }
        let client = try client(server, timeout: 1)
        // The error says the deadline cut it off (the dribble would take a minute and then be read). No clock is
        // checked here: the test process may wait minutes for a thread on a loaded machine.
        let error = await storeError { _ = try await client.unfinished() }
        #expect(error == .answerTooSlow(place: "127.0.0.1:\(server.port)", seconds: 1))
        #expect(error?.mayHaveReachedTheStore == true)
        #expect(
            error?.description
                == "the store did not answer in time: the answer from 127.0.0.1:\(server.port) did not come whole "
                + "within 1 second")
    }

    @Test func aDribbledPurchaseAnswerMayHaveGoneThrough() async throws {
        let server = try ScriptedHTTPServer { _ in .dribble(body: String(repeating: " ", count: 300), every: 0.2) }
        defer { server.stop() }
        let client = try client(server, timeout: 1)
        let error = await storeError { _ = try await client.purchase("p", appAccountToken: nil) }
        #expect(error?.mayHaveReachedTheStore == true)
        #expect(
            error?.unansweredDetail == "the answer from 127.0.0.1:\(server.port) did not come whole within 1 second")
        #expect(server.requests.map(\.method) == ["POST"])
    }

    @Test func anEndlessAnswerIsRefusedAsItPassesTheBodyLimit() async throws {
        let server = try ScriptedHTTPServer { _ in .endless }
        defer { server.stop() }
        // A deadline far off: only the body limit can stop this one.
        let client = try client(server, timeout: 120)
        let error = await storeError { _ = try await client.unfinished() }
        #expect(error == .answerTooLarge(place: "127.0.0.1:\(server.port)", limit: 16 << 20))
        #expect(
            error?.description
                == "the store's answer from 127.0.0.1:\(server.port) was larger than 16 MiB, so it was not read")
        #expect(error?.mayHaveReachedTheStore == true)
    }

    @Test func aDeclaredHugeAnswerIsNotRead() async throws {
        let server = try ScriptedHTTPServer { _ in .declared(1 << 30) }
        defer { server.stop() }
        let client = try client(server, timeout: 120)
        let error = await storeError { _ = try await client.unfinished() }
        #expect(error == .answerTooLarge(place: "127.0.0.1:\(server.port)", limit: 16 << 20))
    }

    @Test(arguments: [(1_000, true), (1_025, false)])
    func anAnswerUpToTheLimitIsRead(_ size: Int, _ read: Bool) async throws {
        let body = Self.unfinished + String(repeating: " ", count: size - Self.unfinished.utf8.count)
        let server = try ScriptedHTTPServer { _ in .whole(status: 200, body: body) }
        defer { server.stop() }
        let client = try client(server, timeout: 10, bodyLimit: 1_024)
        if read {
            #expect(try await client.unfinished().isEmpty)
        } else {
            let error = await storeError { _ = try await client.unfinished() }
            #expect(error == .answerTooLarge(place: "127.0.0.1:\(server.port)", limit: 1_024))
            #expect(error?.description.contains("larger than 1 KiB, so it was not read") == true)
        }
    }

    @Test func aHistoryThatNeverEndsStopsAtThePageLimit() async throws {
        let server = try ScriptedHTTPServer { request in
            Self.page(revision: "r\(request.query["revision"] ?? "")x", hasMore: true)
        }
        defer { server.stop() }
        let error = await storeError { _ = try await serverAPI(server, pageLimit: 25).history(through: "1") }
        #expect(error == .historyDidNotEnd(pages: 25))
        #expect(server.requests.count == 25)
        #expect(error?.mayHaveReachedTheStore == false)
        let words = try #require(error?.description)
        #expect(words.contains("still said there was more after 25 pages, so it was not read further"), "\(words)")
        #expect(StoreError.historyDidNotEnd(pages: 1_000).description.contains("after 1,000 pages"))
    }

    @Test(arguments: [(["A"], 2), (["A", "B"], 3)])
    func aHistoryWhoseRevisionComesBackIsRefused(_ cycle: [String], _ page: Int) async throws {
        let count = Counter()
        let server = try ScriptedHTTPServer { _ in Self.page(revision: cycle[count.next() % cycle.count], hasMore: true)
        }
        defer { server.stop() }
        let error = await storeError { _ = try await serverAPI(server).history(through: "1") }
        #expect(error == .historyDidNotMoveOn(page: page))
        #expect(server.requests.count == page)
        #expect(error?.description.contains("page \(page) gave a revision it had given before") == true)
    }

    @Test func aHistoryThatEndsIsReadWhole() async throws {
        let server = try ScriptedHTTPServer { request in
            let page = Int(request.query["revision"] ?? "0") ?? 0
            return Self.page(revision: "\(page + 1)", hasMore: page + 1 < 30)
        }
        defer { server.stop() }
        _ = try await serverAPI(server, pageLimit: 30).history(through: "1")
        #expect(server.requests.count == 30)
    }

    @Test func theServerAPIClientHasTheWholeRequestDeadlineToo() async throws {
        let server = try ScriptedHTTPServer { _ in .dribble(body: String(repeating: " ", count: 300), every: 0.2) }
        defer { server.stop() }
        let error = await storeError { _ = try await serverAPI(server, timeout: 1).history(through: "1") }
        #expect(error == .answerTooSlow(place: "127.0.0.1:\(server.port)", seconds: 1))
    }
}

/// A count shared with a server's answering threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    /// The count before this call.
    func next() -> Int {
        lock.withLock {
            defer { value += 1 }
            return value
        }
    }
}
