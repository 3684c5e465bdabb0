import Foundation
import MockStoreSQLite

/// A new database's schema in one pass: what versions 1 to 4 (``TransactionStore/schemaSQL`` and its successors) leave, without their `ALTER TABLE`s. Each `ALTER TABLE` makes SQLite parse the whole schema again,
/// which was half the time of making the in-memory database of an `--ephemeral` start. Composed from the migrations
/// themselves, so there is one text of each table; `TransactionStoreSchemaTests` checks that both ways give the same
/// schema, statement by statement, and the same rows.
enum FreshSchema {
    /// What an added column's statement starts with.
    private static let addColumn = "ALTER TABLE transactions ADD COLUMN "

    /// The current schema, for a file that has none yet: version 1's `CREATE TABLE transactions` with the columns
    /// the later versions add, then every other statement of the versions but the `ALTER TABLE`s, the `UPDATE`s and
    /// copies (`INSERT … SELECT`) of rows a new file does not have, the tables a later version drops (with their
    /// indexes and the `DROP`), and the versions in between.
    static let sql: String = {
        let statements = [
            TransactionStore.schemaSQL, TransactionStore.version2SQL, TransactionStore.version3SQL,
            TransactionStore.version4SQL,
        ].flatMap(sqlStatements)
        let addedColumns = statements.filter { $0.hasPrefix(addColumn) }.map { String($0.dropFirst(addColumn.count)) }
        let dropped = statements.filter { $0.hasPrefix("DROP TABLE ") }.map { String($0.dropFirst(11)) }
        func isDropped(_ statement: String) -> Bool {
            dropped.contains { table in
                statement.hasPrefix("CREATE TABLE \(table) (") || statement.contains(" ON \(table) (")
            }
        }
        var fresh: [String] = []
        for statement in statements {
            if statement.hasPrefix("CREATE TABLE transactions ("),
                let end = statement.range(of: ") STRICT", options: .backwards)
            {
                fresh.append(
                    statement[..<end.lowerBound] + ",\n" + addedColumns.joined(separator: ",\n") + "\n) STRICT")
            } else if !statement.hasPrefix("ALTER TABLE") && !statement.hasPrefix("UPDATE ")
                && !statement.hasPrefix("PRAGMA user_version") && !statement.hasPrefix("DROP TABLE ")
                && !(statement.hasPrefix("INSERT INTO ") && statement.contains("SELECT ")) && !isDropped(statement)
            {
                fresh.append(statement)
            }
        }
        return (fresh + ["PRAGMA user_version = \(TransactionStore.schemaVersion)"]).joined(separator: ";\n") + ";"
    }()

    /// The statements of `sql`, trimmed (the migrations' texts hold no `;` inside a statement).
    private static func sqlStatements(_ sql: String) -> [String] {
        sql.split(separator: ";").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    /// Creates the current schema in `database`, which has none: one pass for a new file (``migrate()`` runs the
    /// migrations for an old one, ``TransactionStore``).
    static func create(in database: SQLiteDatabase) throws {
        try database.execute(sql)
    }
}
