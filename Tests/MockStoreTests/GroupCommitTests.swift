import Foundation
import Locking
import Signing
import StoreTestControls
import StoreWire
import Synchronization
import Testing

@testable import MockStoreHTTP
@testable import MockStoreServer

/// Group commit: concurrent calls share SQLite transactions, and each is answered only once the commit that holds
/// its work has succeeded.
@Suite struct GroupCommitTests {
    static let secret = Array("group-commit-secret".utf8)
    static let credit500 = "ai.voicedebrief.app.credit.500"

    let directory: TemporaryDirectory
    let router: MockStoreRouter
    var store: MockStore { router.store }
    var databasePath: String { directory.file("store.sqlite") }

    init() throws {
        directory = try TemporaryDirectory()
        router = MockStoreRouter(
            store: try MockStore.fresh(in: directory, signer: JWSTransactionSigner.hs256(secret: Self.secret)))
    }

    static func buy(_ router: MockStoreRouter) -> HTTPResponse {
        router.respond(
            to: HTTPRequest(
                method: "POST", path: DeviceAPI.purchase.path(),
                body: Array(#"{"productId": "\#(Self.credit500)"}"#.utf8)))
    }

    static func finish(_ id: String, _ router: MockStoreRouter) -> HTTPResponse {
        router.respond(to: HTTPRequest(method: "POST", path: DeviceAPI.finish.path(.init(transactionId: id))))
    }

    /// The transaction id in a successful purchase answer, after checking its signature.
    static func transactionId(in response: HTTPResponse) -> String? {
        guard response.status == 200,
            let body = try? JSONDecoder().decode(PurchaseResponseBody.self, from: Data(response.body)),
            let jws = body.signedTransaction, let parsed = try? CompactJWS.parse(jws),
            (try? parsed.verifyHS256(secret: secret)) != nil,
            let payload = try? JSONDecoder().decode(SignedTransactionPayload.self, from: Data(parsed.payload))
        else { return nil }
        return payload.transactionId
    }
}

extension GroupCommitTests {
    @Test func concurrentPurchasesAndFinishesAreEachRecordedOnceAndCommittedBeforeTheyAreAnswered() throws {
        let threads = 8
        let cycles = 25
        let path = databasePath
        let router = router
        let answered = Mutex<[String]>([])
        let problems = Mutex<[String]>([])
        // Connections of their own see only what is committed: an answered call must already be there. Four, each
        // shared by two threads: SQLite's WAL has five read marks, and readers on more snapshots than that (threads
        // held off their core mid-read on a loaded machine) can leave the store's writer none: probably why one loaded
        // run's write failed with "database is locked" (the store itself has one connection).
        let readers = try (0..<threads / 2).map { _ in Locked(try TransactionStore(path: path)) }
        defer { for reader in readers { reader.withLock { try? $0.close() } } }
        Concurrently.run(threads) { thread in
            let reader = readers[thread % readers.count]
            for cycle in 0..<cycles {
                let bought = Self.buy(router)
                guard let id = Self.transactionId(in: bought) else {
                    problems.withLock {
                        $0.append(
                            "thread \(thread) cycle \(cycle): purchase \(bought.status) \(String(decoding: bought.body, as: UTF8.self))"
                        )
                    }
                    return
                }
                if (reader.withLock { try? $0.transaction(id: id) }) == nil {
                    problems.withLock { $0.append("\(id) was answered before it was committed") }
                }
                let finished = Self.finish(id, router)
                if finished.status != 200 {
                    problems.withLock { $0.append("\(id): finish \(finished.status)") }
                }
                if (reader.withLock { try? $0.transaction(id: id) })??.isFinished != true {
                    problems.withLock { $0.append("\(id)'s finish was answered before it was committed") }
                }
                answered.withLock { $0.append(id) }
            }
        }
        #expect(problems.withLock { $0 } == [])
        let ids = answered.withLock { $0 }
        #expect(ids.count == threads * cycles)
        #expect(Set(ids).count == ids.count, "every purchase got an id of its own")

        let recorded = try store.allTransactions()
        #expect(recorded.map(\.serial) == Array(1...Int64(threads * cycles)), "each recorded once, no gaps")
        #expect(Set(recorded.map(\.id)) == Set(ids))
        #expect(recorded.allSatisfy { $0.isFinished })
        let statistics = store.commitStatistics
        #expect(statistics.calls >= threads * cycles * 2, "every purchase and finish waited for a commit")
        #expect(statistics.commits <= statistics.calls)

        // After the store is closed and the file opened again, everything answered is there.
        try store.close()
        let reopened = try TransactionStore(path: path)
        defer { try? reopened.close() }
        let survived = try reopened.allTransactions()
        #expect(Set(survived.map(\.id)) == Set(ids))
        #expect(survived.allSatisfy { $0.isFinished })
        #expect(try reopened.changes(after: 0, limit: 10_000).count == threads * cycles * 2)
    }

    @Test func aFailedCommitFailsEveryCallInItsBatchAndRecordsNothing() throws {
        let followers = 4
        let store = store
        let router = router
        let holding = DispatchSemaphore(value: 0)
        let leaderDone = DispatchSemaphore(value: 0)
        let leaderOutcome = Mutex<MockStoreError?>(nil)
        Thread {
            do throws(MockStoreError) {
                try store.withDatabase { database in
                    // A change logged for a transaction that does not exist: the deferred foreign key makes the
                    // COMMIT itself fail, after every statement of the batch succeeded.
                    _ = try database.logChange(.finished, transactionId: "1", date: 0)
                    holding.signal()
                    // Keep the lock until the purchases below wait for it, so that they join this batch (the
                    // deadline only keeps a broken store from hanging the test).
                    waitUntil(timeout: 60, pollEvery: 0.001) { store.database.waitingForLock >= followers }
                }
            } catch {
                leaderOutcome.withLock { $0 = error }
            }
            leaderDone.signal()
        }.start()
        holding.wait()
        let responses = Mutex<[HTTPResponse]>([])
        Concurrently.run(followers) { _ in
            let response = Self.buy(router)
            responses.withLock { $0.append(response) }
        }
        leaderDone.wait()

        #expect(leaderOutcome.withLock { $0 }?.status == 500, "the call whose commit failed did not succeed")
        let answers = responses.withLock { $0 }
        #expect(answers.count == followers)
        for answer in answers {
            #expect(answer.status == 500, "a purchase in a batch whose commit failed must not be answered success")
            #expect(answer.header("Content-Type") == "application/json")
            #expect(answer.decoded(StoreErrorBody.self)?.errorCode == .generalInternal)
        }
        #expect(try store.allTransactions().isEmpty, "the batch was rolled back as a whole")

        // The store goes on, and the rolled-back serial numbers are used again.
        let first = SandboxTransactionIDs().transactionID(forSerial: 1)
        #expect(Self.transactionId(in: Self.buy(router)) == first)
        try store.close()
        let reopened = try TransactionStore(path: databasePath)
        defer { try? reopened.close() }
        #expect(try reopened.allTransactions().map(\.serial) == [1])
        #expect(try reopened.changes(after: 0).map(\.transactionId) == [first])
    }

    @Test func readsCommitNothingAndEachWriteWaitsForACommit() throws {
        for path in [DeviceAPI.unfinished.path(), DeviceAPI.updates.path(), TestControls.settings.path()] {
            #expect(router.respond(to: HTTPRequest(method: "GET", path: path)).status == 200)
        }
        #expect(store.commitStatistics == (0, 0), "reads alone commit nothing")
        let id = try #require(Self.transactionId(in: Self.buy(router)))
        #expect(store.commitStatistics == (1, 1))
        #expect(Self.finish(id, router).status == 200)
        #expect(store.commitStatistics == (2, 2))
    }
}
