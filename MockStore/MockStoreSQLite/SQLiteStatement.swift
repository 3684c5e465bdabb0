import CSQLite

/// A compiled SQL statement, finalized when released. It keeps its database alive.
public final class SQLiteStatement {
    private let database: SQLiteDatabase
    private let handle: OpaquePointer
    /// The SQL text, for error messages.
    public let sql: String

    init(database: SQLiteDatabase, handle: OpaquePointer, sql: String) {
        self.database = database
        self.handle = handle
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Resets the statement and binds `values` to its parameters `?1`, `?2`, … in order.
    public func bind(_ values: [SQLiteValue]) throws {
        // reset returns the error of the previous step, which was already reported: only clearing matters.
        sqlite3_reset(handle)
        try database.check(sqlite3_clear_bindings(handle), "clearing the bindings of \(sql)")
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard expected == values.count else {
            throw SQLiteError(
                code: SQLITE_RANGE, message: "\(values.count) values for \(expected) parameters", operation: sql)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let integer):
                code = sqlite3_bind_int64(handle, index, integer)
            case .text(let text):
                code = sqlite3_bind_text(handle, index, text, -1, CSQLite_transient())
            case .null:
                code = sqlite3_bind_null(handle, index)
            }
            try database.check(code, "binding parameter \(index) of \(sql)")
        }
    }

    /// Advances to the next row: `true` when a row is ready to read, `false` when the statement is done.
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        default:
            let error = database.error(code, sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Binds `values` and runs the statement to completion (for statements that return no rows).
    public func run(_ values: [SQLiteValue] = []) throws {
        try bind(values)
        while try step() {}
        sqlite3_reset(handle)
    }

    /// Binds `values` and maps every row with `row`.
    public func query<Row>(_ values: [SQLiteValue] = [], row: (SQLiteStatement) throws -> Row) throws -> [Row] {
        try bind(values)
        defer { sqlite3_reset(handle) }
        var rows: [Row] = []
        while try step() {
            rows.append(try row(self))
        }
        return rows
    }

    /// Column `index` of the current row as an integer (0 when NULL).
    public func int64(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// Column `index` of the current row as an integer, or `nil` when NULL.
    public func optionalInt64(at index: Int32) -> Int64? {
        sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, index)
    }

    /// Column `index` of the current row as text, or `nil` when NULL.
    public func text(at index: Int32) -> String? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL, let bytes = sqlite3_column_text(handle, index) else {
            return nil
        }
        return String(cString: bytes)
    }
}
