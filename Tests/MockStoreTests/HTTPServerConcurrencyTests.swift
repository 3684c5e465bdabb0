import Foundation
import StoreWire
import Synchronization
import Testing

@testable import MockStoreHTTP
@testable import MockStoreServer
@testable import StoreKitCatalogue

/// The server handles requests on different connections at the same time (a thread per connection), so a handler
/// that waits holds up only its own connection; and the whole store answers concurrent purchases correctly over it.
@Suite struct HTTPServerConcurrencyTests {
    /// Answers only once `expected` requests are inside it at the same time (or, failing that, 503 after a while).
    final class Rendezvous: HTTPHandler {
        let expected: Int
        private let arrived = Mutex(0)
        private let everyoneIn = DispatchSemaphore(value: 0)

        init(expected: Int) {
            self.expected = expected
        }

        func respond(to request: HTTPRequest) -> HTTPResponse {
            let count = arrived.withLock { count in
                count += 1
                return count
            }
            if count == expected {
                for _ in 0..<expected { everyoneIn.signal() }
            }
            // Not a speed check: the deadline only keeps a serial server from hanging the test.
            guard everyoneIn.wait(timeout: .now() + 30) == .success else {
                return .error(status: 503, code: .simulatedStoreKitError, message: "the other requests never arrived")
            }
            return .json(["inside": expected])
        }

        func payloadTooLarge(limit: Int) -> HTTPResponse {
            .error(status: 413, code: .payloadTooLarge, message: "over \(limit)")
        }
    }
}

extension HTTPServerConcurrencyTests {
    @Test func requestsOnDifferentConnectionsAreHandledAtTheSameTime() throws {
        let connections = 6
        let server = try HTTPServer(host: "127.0.0.1", port: 0, handler: Rendezvous(expected: connections))
        defer { server.stop() }
        let port = server.port
        let statuses = Mutex<[Int]>([])
        Concurrently.run(connections) { _ in
            let status =
                (try? RawHTTPClient.send("GET /wait HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port))?
                .status ?? -1
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0 } == Array(repeating: 200, count: connections))
    }

    @Test func concurrentPurchasesOverHTTPAreEachAnsweredAndRecordedOnce() throws {
        let directory = try TemporaryDirectory()
        let store = MockStore(
            configuration: .init(
                catalogue: try StoreKitConfiguration.load(contentsOf: Repository.catalogue),
                bundleId: "ai.voicedebrief.app", signer: JWSTransactionSigner.hs256(secret: GroupCommitTests.secret)),
            database: try TransactionStore(path: directory.file("store.sqlite")))
        let server = try HTTPServer(host: "127.0.0.1", port: 0, handler: MockStoreRouter(store: store))
        defer {
            server.stop()
            try? store.close()
        }
        let port = server.port
        let clients = 8
        let cycles = 5
        let ids = Mutex<[String]>([])
        let problems = Mutex<[String]>([])
        Concurrently.run(clients) { client in
            for cycle in 0..<cycles {
                let body = Array(#"{"productId": "\#(GroupCommitTests.credit500)"}"#.utf8)
                let bought = try? RawHTTPClient.send(
                    "POST \(DeviceAPI.purchase.path()) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                        + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n",
                    body: body, port: port)
                guard let bought,
                    let id = GroupCommitTests.transactionId(
                        in: HTTPResponse(status: bought.status, body: bought.body))
                else {
                    problems.withLock { $0.append("client \(client) cycle \(cycle): purchase \(bought?.status ?? -1)") }
                    return
                }
                let finished = try? RawHTTPClient.send(
                    "POST \(DeviceAPI.finish.path(.init(transactionId: id))) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                        + "Content-Length: 0\r\n\r\n", port: port)
                if finished?.status != 200 || finished?.headers["content-type"] != "application/json" {
                    problems.withLock { $0.append("\(id): finish \(finished?.status ?? -1)") }
                }
                ids.withLock { $0.append(id) }
            }
        }
        #expect(problems.withLock { $0 } == [])
        let answered = ids.withLock { $0 }
        #expect(answered.count == clients * cycles)
        let recorded = try store.allTransactions()
        #expect(recorded.count == clients * cycles)
        #expect(Set(recorded.map(\.id)) == Set(answered))
        #expect(recorded.allSatisfy { $0.isFinished })
    }
}
