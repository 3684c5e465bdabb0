import Foundation
import MockStoreSQLite
import Signing
import StoreWire
import Testing

@testable import MockStoreHTTP
@testable import MockStoreServer

/// Issue 11: the store's connection leaves flushing the WAL to group commit, which flushes once per batch that
/// holds a purchase, outside the database lock; a finish is answered once committed, without a flush of its own.
@Suite struct GroupCommitFlushTests {
    let directory: TemporaryDirectory
    let router: MockStoreRouter
    var store: MockStore { router.store }

    init() throws {
        directory = try TemporaryDirectory()
        router = MockStoreRouter(
            store: try MockStore.fresh(
                in: directory, signer: JWSTransactionSigner.hs256(secret: GroupCommitTests.secret))
        )
    }

    @Test func aPurchaseIsFlushedBeforeItIsAnsweredAndAFinishOnlyCommitted() throws {
        #expect(store.database.flushes == 0)
        let id = try #require(GroupCommitTests.transactionId(in: GroupCommitTests.buy(router)))
        #expect(store.database.flushes == 1, "the purchase was answered after a flush of the WAL")
        #expect(GroupCommitTests.finish(id, router).status == 200)
        #expect(store.database.flushes == 1, "a finish waits for its commit, not for a flush")
        // Committed all the same: another connection sees it finished.
        let reader = try TransactionStore(path: directory.file("store.sqlite"))
        defer { try? reader.close() }
        #expect(try reader.transaction(id: id)?.isFinished == true)
        // The next purchase's flush takes the finish to the disk with it.
        #expect(GroupCommitTests.transactionId(in: GroupCommitTests.buy(router)) != nil)
        #expect(store.database.flushes == 2)
        // Reads flush nothing.
        #expect(
            router.respond(to: HTTPRequest(method: "GET", path: DeviceAPI.unfinished.path())).status == 200)
        #expect(store.database.flushes == 2)
    }

    @Test func theConnectionCommitsWithoutFlushingItself() throws {
        // PRAGMA synchronous: 1 is NORMAL (a commit writes the WAL, group commit flushes it), 2 would be FULL.
        let level = try store.withDatabase { try $0.database.queryText("PRAGMA synchronous") }
        #expect(level == "1")
    }

    @Test func whatWasAnsweredIsThereAfterTheStoreIsClosedAndOpenedAgain() throws {
        var ids: [String] = []
        for _ in 0..<3 {
            let id = try #require(GroupCommitTests.transactionId(in: GroupCommitTests.buy(router)))
            #expect(GroupCommitTests.finish(id, router).status == 200)
            ids.append(id)
        }
        try store.close()
        let reopened = try TransactionStore(path: directory.file("store.sqlite"))
        defer { try? reopened.close() }
        let recorded = try reopened.allTransactions()
        #expect(recorded.map(\.id) == ids)
        #expect(recorded.allSatisfy { $0.isFinished })
    }
}
