import CSQLite
import Foundation
import Testing

@testable import MockStoreSQLite
@testable import MockStoreServer

@Suite struct TransactionStoreTests {
    let directory: TemporaryDirectory
    var path: String { directory.file("store.sqlite") }

    init() throws {
        directory = try TemporaryDirectory()
    }

    func purchase(
        _ productId: String = "ai.voicedebrief.app.credit.500", quantity: Int = 1, at date: Int64 = 1_760_000_000_000,
        token: String? = nil, status: StoredTransaction.Status = .purchased
    ) -> NewTransaction {
        NewTransaction(
            productId: productId, productType: .consumable, quantity: quantity, price: 5_000 * Int64(quantity),
            currency: "GBP", storefront: "GBR", storefrontId: "143444", purchaseDate: date, appAccountToken: token,
            status: status)
    }
}

// MARK: Recording

extension TransactionStoreTests {
    @Test func insertNumbersTransactionsLikeAppleSandbox() throws {
        let store = try TransactionStore(path: path)
        let first = try store.insert(
            purchase(token: "9b2b9d1e-4a5f-4c1e-8a77-1f2e3d4c5b6a"), ids: SandboxTransactionIDs())
        let second = try store.insert(purchase(quantity: 3), ids: SandboxTransactionIDs())
        #expect(first.id == "2000000000000001")
        #expect(second.id == "2000000000000002")
        #expect(first.originalTransactionId == first.id)
        #expect([first.serial, second.serial] == [1, 2])
        #expect(first.version == 1)
        #expect(second.changeSequence > first.changeSequence)
        #expect(try store.transaction(id: first.id) == first, "what is read back is what was returned")
        #expect(try store.transaction(id: second.id)?.quantity == 3)
        #expect(try store.transaction(id: second.id)?.price == 15_000)
        #expect(try store.transaction(id: first.id)?.appAccountToken == "9b2b9d1e-4a5f-4c1e-8a77-1f2e3d4c5b6a")
        #expect(try store.transaction(id: "2000000000000003") == nil)
    }

    @Test func injectedIDSourceIsUsed() throws {
        let store = try TransactionStore(path: path)
        let stored = try store.insert(purchase(), ids: PrefixedIDs(prefix: "77"))
        #expect(stored.id == "771")
        #expect(try store.allTransactions().map(\.id) == ["771"])
    }

    @Test func duplicateIDFromASourceIsRefusedByTheDatabase() throws {
        struct SameID: TransactionIDSource {
            func transactionID(forSerial serial: Int64) -> String { "1" }
        }
        let store = try TransactionStore(path: path)
        try store.insert(purchase(), ids: SameID())
        let error = #expect(throws: SQLiteError.self) { try store.insert(purchase(), ids: SameID()) }
        #expect(error?.primaryCode == SQLITE_CONSTRAINT)
        #expect(try store.allTransactions().count == 1)
    }

    @Test func failedConfirmationRecordsNothingAndKeepsTheSerial() throws {
        struct SigningFailed: Error {}
        let store = try TransactionStore(path: path)
        #expect(throws: SigningFailed.self) {
            try store.insert(purchase(), ids: SandboxTransactionIDs()) { _ in throw SigningFailed() }
        }
        #expect(try store.allTransactions().isEmpty)
        #expect(try store.latestChangeSequence() == 0)
        let next = try store.insert(purchase(), ids: SandboxTransactionIDs())
        #expect(next.serial == 1, "the rolled-back serial is not used up")
    }

    @Test func quantityMustBePositive() throws {
        let store = try TransactionStore(path: path)
        let error = #expect(throws: SQLiteError.self) {
            try store.insert(purchase(quantity: 0), ids: SandboxTransactionIDs())
        }
        #expect(error?.primaryCode == SQLITE_CONSTRAINT)
    }
}

// MARK: Unfinished and finishing

extension TransactionStoreTests {
    @Test func unfinishedListsOnlyPaidUnfinishedOldestFirst() throws {
        let store = try TransactionStore(path: path)
        let ids = SandboxTransactionIDs()
        let a = try store.insert(purchase(), ids: ids)
        let pending = try store.insert(purchase(status: .pending), ids: ids)
        let b = try store.insert(purchase(), ids: ids)
        let c = try store.insert(purchase(), ids: ids)
        #expect(try store.finish(id: b.id, at: 1) == .finished)
        #expect(try store.unfinishedTransactions().map(\.id) == [a.id, c.id])
        #expect(try store.allTransactions().map(\.id) == [a.id, pending.id, b.id, c.id])
    }

    @Test func finishIsIdempotent() throws {
        let store = try TransactionStore(path: path)
        let stored = try store.insert(purchase(), ids: SandboxTransactionIDs())
        #expect(try store.finish(id: stored.id, at: 1_760_000_100_000) == .finished)
        let finished = try #require(try store.transaction(id: stored.id))
        #expect(finished.isFinished)
        #expect(finished.finishedDate == 1_760_000_100_000)
        #expect(finished.version == 2)
        #expect(finished.changeSequence > stored.changeSequence)

        #expect(try store.finish(id: stored.id, at: 1_760_000_200_000) == .alreadyFinished)
        #expect(try store.transaction(id: stored.id) == finished, "a second finish changes nothing")
        #expect(try store.changes(after: 0).map(\.kind) == [.created, .finished], "and logs nothing")
    }

    @Test func finishingUnknownOrPendingIsNotFound() throws {
        let store = try TransactionStore(path: path)
        let pending = try store.insert(purchase(status: .pending), ids: SandboxTransactionIDs())
        #expect(try store.finish(id: "2000000999999999", at: 1) == .notFound)
        #expect(try store.finish(id: pending.id, at: 1) == .notFound)
        #expect(try store.transaction(id: pending.id)?.isFinished == false)
    }

    @Test func latestActivePurchaseFindsTheNewestPaidOne() throws {
        let store = try TransactionStore(path: path)
        let ids = SandboxTransactionIDs()
        #expect(try store.latestActivePurchase(productId: "lifetime") == nil)
        _ = try store.insert(purchase("lifetime"), ids: ids)
        let newer = try store.insert(purchase("lifetime"), ids: ids)
        _ = try store.insert(purchase("lifetime", status: .pending), ids: ids)
        _ = try store.insert(purchase("other"), ids: ids)
        #expect(try store.latestActivePurchase(productId: "lifetime")?.id == newer.id)
    }
}

// MARK: Restart

extension TransactionStoreTests {
    @Test func restartKeepsEveryTransactionAndNeverReusesAnID() throws {
        let ids = SandboxTransactionIDs()
        var before: [StoredTransaction] = []
        do {
            let store = try TransactionStore(path: path)
            before.append(try store.insert(purchase(), ids: ids))
            before.append(try store.insert(purchase(quantity: 2), ids: ids))
            #expect(try store.finish(id: before[0].id, at: 5) == .finished)
            try store.setSetting("askToBuyEnabled", to: "true")
            try store.close()
        }
        let reopened = try TransactionStore(path: path)
        let all = try reopened.allTransactions()
        #expect(all.map(\.id) == before.map(\.id))
        #expect(all[0].isFinished, "finished stays finished")
        #expect(all[1] == before[1], "unfinished stays as it was")
        #expect(try reopened.unfinishedTransactions().map(\.id) == [before[1].id])
        #expect(try reopened.setting("askToBuyEnabled") == "true")
        let third = try reopened.insert(purchase(), ids: ids)
        #expect(third.id == "2000000000000003", "the counter continues after a restart")
        #expect(try reopened.finish(id: before[0].id, at: 9) == .alreadyFinished)
    }

    @Test func databaseIsInWALModeAndCloseRemovesTheLog() throws {
        let store = try TransactionStore(path: path)
        try store.insert(purchase(), ids: SandboxTransactionIDs())
        let database = try SQLiteDatabase(path: path)
        #expect(try database.queryText("PRAGMA journal_mode") == "wal")
        try database.close()
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        try store.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "the last close checkpoints the WAL")
        try store.close()  // closing twice is harmless
    }

    @Test func aClosedStoreRefusesWork() throws {
        let store = try TransactionStore(path: path)
        try store.close()
        let error = #expect(throws: SQLiteError.self) { try store.allTransactions() }
        #expect(error?.code == SQLITE_MISUSE)
        #expect(error?.message == "the database is closed")
    }

    @Test func aNewerSchemaIsRefused() throws {
        do {
            let database = try SQLiteDatabase(path: path)
            try database.execute("PRAGMA user_version = 99")
            try database.close()
        }
        let error = #expect(throws: SQLiteError.self) { try TransactionStore(path: path) }
        #expect(error?.message.contains("schema version 99") == true)
    }

    @Test func aFileThatIsNotADatabaseIsRefused() throws {
        try directory.write(String(repeating: "not a database ", count: 100), to: "store.sqlite")
        let error = #expect(throws: SQLiteError.self) { try TransactionStore(path: path) }
        #expect(error?.primaryCode == SQLITE_NOTADB)
    }
}

// MARK: Change log and settings

extension TransactionStoreTests {
    @Test func changeLogNumbersEveryChangeInOrder() throws {
        let store = try TransactionStore(path: path)
        let ids = SandboxTransactionIDs()
        let a = try store.insert(purchase(at: 100), ids: ids)
        let b = try store.insert(purchase(at: 200), ids: ids)
        _ = try store.finish(id: a.id, at: 300)
        let changes = try store.changes(after: 0)
        #expect(changes.map(\.transactionId) == [a.id, b.id, a.id])
        #expect(changes.map(\.kind) == [.created, .created, .finished])
        #expect(changes.map(\.date) == [100, 200, 300])
        #expect(changes.map(\.sequence) == changes.map(\.sequence).sorted())
        #expect(
            try store.changes(after: changes[0].sequence).map(\.sequence) == Array(changes.dropFirst().map(\.sequence)))
        #expect(try store.changes(after: 0, limit: 1).count == 1)
        #expect(try store.latestChangeSequence() == changes[2].sequence)
        #expect(try store.transaction(id: a.id)?.changeSequence == changes[2].sequence)
    }

    @Test func settingsAreSetReplacedAndRemoved() throws {
        let store = try TransactionStore(path: path)
        #expect(try store.setting("storefront") == nil)
        try store.setSetting("storefront", to: "USA")
        try store.setSetting("storefront", to: "GBR")
        try store.setSetting("locale", to: "en_GB")
        #expect(try store.allSettings() == ["storefront": "GBR", "locale": "en_GB"])
        try store.setSetting("storefront", to: nil)
        #expect(try store.setting("storefront") == nil)
        #expect(try store.allSettings() == ["locale": "en_GB"])
    }

    @Test func sandboxIDsPadTheSerial() {
        let ids = SandboxTransactionIDs()
        #expect(ids.transactionID(forSerial: 1) == "2000000000000001")
        #expect(ids.transactionID(forSerial: 376_851_165) == "2000000376851165")
        #expect(ids.transactionID(forSerial: 1_234_567_890) == "20000001234567890", "wider serials are not cut")
    }
}
