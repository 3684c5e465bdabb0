import Foundation
import MockStoreSQLite

/// A new database's schema in one pass: what versions 1, 2 and 3 (``schemaSQL``, ``version2SQL``, ``version3SQL``)
/// leave, without their `ALTER TABLE`s. Each `ALTER TABLE` makes SQLite parse the whole schema again, which was half
/// the time of making the in-memory database of an `--ephemeral` start. Composed from the migrations themselves, so
/// there is one text of each table; `TransactionStoreSchemaTests` checks that both ways give the same schema,
/// statement by statement, and the same rows.
extension TransactionStore {
    /// What an added column's statement starts with.
    private static let addColumn = "ALTER TABLE transactions ADD COLUMN "

    /// Schema version 3, for a file that has none yet: version 1's `CREATE TABLE transactions` with the columns the
    /// later versions add, then every other statement of the three but the `ALTER TABLE`s, the `UPDATE`s of rows a
    /// new file does not have, and the versions in between.
    static let freshSchemaSQL: String = {
        let statements = [schemaSQL, version2SQL, version3SQL].flatMap(sqlStatements)
        let addedColumns = statements.filter { $0.hasPrefix(addColumn) }.map { String($0.dropFirst(addColumn.count)) }
        var fresh: [String] = []
        for statement in statements {
            if statement.hasPrefix("CREATE TABLE transactions ("),
                let end = statement.range(of: ") STRICT", options: .backwards)
            {
                fresh.append(
                    statement[..<end.lowerBound] + ",\n" + addedColumns.joined(separator: ",\n") + "\n) STRICT")
            } else if !statement.hasPrefix("ALTER TABLE") && !statement.hasPrefix("UPDATE ")
                && !statement.hasPrefix("PRAGMA user_version")
            {
                fresh.append(statement)
            }
        }
        return (fresh + ["PRAGMA user_version = 3"]).joined(separator: ";\n") + ";"
    }()

    /// The statements of `sql`, trimmed (the migrations' texts hold no `;` inside a statement).
    private static func sqlStatements(_ sql: String) -> [String] {
        sql.split(separator: ";").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    /// Creates schema version 3 in `database`, which has none: one pass for a new file (``migrate()`` runs the
    /// migrations for an old one).
    static func createFreshSchema(in database: SQLiteDatabase) throws {
        try database.execute(freshSchemaSQL)
    }
}
