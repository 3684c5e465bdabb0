import Foundation
import Testing

@testable import MockStoreSQLite
@testable import MockStoreServer

/// A new database gets the current schema in one pass (``FreshSchema/sql``); an old file is migrated.
/// Both must end with the same schema, statement by statement, or a fresh store and a migrated one would differ.
@Suite struct TransactionStoreSchemaTests {
    /// Every table and index of `database` (name, type, table, and its SQL without whitespace, which migrations'
    /// `ALTER TABLE` leave spaced otherwise), sorted by name.
    static func schema(_ database: SQLiteDatabase) throws -> [String] {
        try database.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name").query { row in
            let sql = (row.text(at: 3) ?? "").filter { !$0.isWhitespace }
            return [row.text(at: 0) ?? "", row.text(at: 1) ?? "", row.text(at: 2) ?? "", sql].joined(separator: " ")
        }
    }

    /// Every row of every table of `database` (the counters a new file starts with), as SQL literals.
    static func rows(_ database: SQLiteDatabase) throws -> [String] {
        let tables = try database.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'sqlite_sequence' ORDER BY name"
        ).query { $0.text(at: 0) ?? "" }
        return try tables.flatMap { table in
            let columns = try database.prepare("SELECT name FROM pragma_table_info('\(table)')").query {
                "quote(\($0.text(at: 0) ?? ""))"
            }
            let row = columns.joined(separator: " || ',' || ")
            return try database.prepare("SELECT '\(table): ' || \(row) FROM \(table) ORDER BY rowid").query {
                $0.text(at: 0) ?? ""
            }
        }
    }
}

extension TransactionStoreSchemaTests {
    @Test func aNewFileAndAMigratedOneHaveTheSameSchema() throws {
        let directory = try TemporaryDirectory()
        let old = directory.file("version1.sqlite")
        let first = try SQLiteDatabase(path: old)
        try first.execute(TransactionStore.schemaSQL)
        #expect(try first.userVersion == 1)
        try first.close()

        let migrated = try TransactionStore(path: old)
        let fresh = try TransactionStore(path: directory.file("new.sqlite"))
        let inMemory = try TransactionStore(path: SQLiteDatabase.inMemoryPath)
        defer {
            try? migrated.close()
            try? fresh.close()
            try? inMemory.close()
        }
        let expected = try Self.schema(migrated.database)
        #expect(expected.count > 10)
        #expect(try Self.schema(fresh.database) == expected)
        #expect(try Self.schema(inMemory.database) == expected)
        let expectedRows = try Self.rows(migrated.database)
        #expect(expectedRows.contains("counters: 'transaction_serial',0"))
        #expect(try Self.rows(fresh.database) == expectedRows)
        #expect(try Self.rows(inMemory.database) == expectedRows)
        #expect(try fresh.database.userVersion == TransactionStore.schemaVersion)
        #expect(try inMemory.database.userVersion == TransactionStore.schemaVersion)
    }

    @Test func aNewFileOpensAgainWithoutMigrating() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("store.sqlite")
        let store = try TransactionStore(path: path)
        let before = try Self.schema(store.database)
        try store.close()
        let again = try TransactionStore(path: path)
        defer { try? again.close() }
        #expect(try Self.schema(again.database) == before)
    }
}
