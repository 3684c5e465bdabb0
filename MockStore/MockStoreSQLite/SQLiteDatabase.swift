import CSQLite

/// One connection to an SQLite database file, in WAL mode, with foreign keys on.
///
/// The connection is used from one thread at a time (the owner, ``GroupCommit``, keeps it behind a lock), so it
/// is opened with `SQLITE_OPEN_NOMUTEX`. It is closed by ``close()`` or, failing that, when the object is released.
/// Statements keep their database alive, and `sqlite3_close_v2` waits for the last one to be finalized.
public final class SQLiteDatabase {
    private(set) var handle: OpaquePointer?
    /// The file path given to ``init(path:)``.
    public let path: String

    /// The path of a database kept in memory only (`--ephemeral`): no file, no WAL, gone when closed.
    public static let inMemoryPath = ":memory:"

    /// Opens (creating if needed) the database at `path`, switches it to WAL and checks that it took
    /// (``inMemoryPath``: a database in memory, which has no WAL and nothing to sync).
    public init(path: String) throws {
        self.path = path
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let message =
                connection.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(connection)
            throw SQLiteError(code: code, message: message, operation: "opening \(path)")
        }
        handle = connection
        try check(sqlite3_extended_result_codes(connection, 1), "enabling extended result codes")
        // Another process (an inspector, a second store by mistake) may hold the lock for a moment.
        try check(sqlite3_busy_timeout(connection, 5_000), "setting the busy timeout")
        let inMemory = path == Self.inMemoryPath
        let mode = try queryText("PRAGMA journal_mode=WAL")
        guard inMemory || mode?.lowercased() == "wal" else {
            throw SQLiteError(
                code: SQLITE_ERROR, message: "journal mode is \(mode ?? "unknown"), not wal",
                operation: "switching \(path) to WAL")
        }
        // FULL: a purchase the store answered must survive a power cut, not only a crash.
        try execute(inMemory ? "PRAGMA synchronous=OFF" : "PRAGMA synchronous=FULL")
        try execute("PRAGMA foreign_keys=ON")
        // Savepoints inside a shared transaction (``GroupCommit``) keep their undo journal in memory, not in a
        // temporary file created and deleted each time.
        try execute("PRAGMA temp_store=MEMORY")
    }

    deinit {
        if let handle {
            sqlite3_close_v2(handle)
        }
    }

    /// Closes the connection: checkpoints the WAL into the main file and removes it (when this was the
    /// last connection). Every statement must have been released first. Closing twice does nothing.
    public func close() throws {
        guard let connection = handle else { return }
        let code = sqlite3_close(connection)
        guard code == SQLITE_OK else {
            throw SQLiteError(
                code: code, message: String(cString: sqlite3_errmsg(connection)), operation: "closing \(path)")
        }
        handle = nil
    }

    /// Runs one or more SQL statements that return no rows.
    public func execute(_ sql: String) throws {
        let connection = try openHandle(for: sql)
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(connection, sql, nil, nil, &errorMessage)
        guard code == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(errorMessage)
            throw SQLiteError(code: code, message: message, operation: sql)
        }
    }

    /// Compiles one SQL statement.
    public func prepare(_ sql: String) throws -> SQLiteStatement {
        let connection = try openHandle(for: sql)
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw error(code, sql)
        }
        return SQLiteStatement(database: self, handle: statement, sql: sql)
    }

    /// Runs `body` inside `BEGIN IMMEDIATE` … `COMMIT`, rolling back if it throws. Inside a transaction already
    /// (a batch of ``GroupCommit``), a savepoint instead: `body`'s changes are all or nothing, and are committed
    /// with the enclosing transaction.
    public func inTransaction<T>(_ body: () throws -> T) throws -> T {
        let nested = isInTransaction
        try execute(nested ? "SAVEPOINT part" : "BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute(nested ? "RELEASE part" : "COMMIT")
            return result
        } catch {
            // The first error is the one worth reporting. If a rollback fails (SQLite may have rolled the whole
            // transaction back already), the owner sees that the transaction is gone, or SQLite rolls back on close.
            if nested {
                try? execute("ROLLBACK TO part")
                try? execute("RELEASE part")
            } else {
                try? execute("ROLLBACK")
            }
            throw error
        }
    }

    /// The path of the database's WAL as SQLite names it (the resolved path of the file and `-wal`); `nil` for a
    /// database in memory or a closed connection.
    public var writeAheadLogPath: String? {
        guard let handle, path != Self.inMemoryPath, let name = sqlite3_db_filename(handle, "main"), name[0] != 0,
            let wal = sqlite3_filename_wal(name)
        else { return nil }
        return String(cString: wal)
    }

    /// Whether a transaction is open on the connection (SQLite is not in autocommit mode).
    public var isInTransaction: Bool {
        guard let handle else { return false }
        return sqlite3_get_autocommit(handle) == 0
    }

    /// Rows inserted, updated or deleted on this connection since it was opened: work that leaves it unchanged
    /// wrote nothing.
    public var totalChanges: Int64 {
        guard let handle else { return 0 }
        return sqlite3_total_changes64(handle)
    }

    /// The first column of the first row of `sql`, as text.
    public func queryText(_ sql: String) throws -> String? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.text(at: 0)
    }

    /// The `PRAGMA user_version` of the file (the schema version this package wrote).
    public var userVersion: Int64 {
        get throws {
            let statement = try prepare("PRAGMA user_version")
            guard try statement.step() else { return 0 }
            return statement.int64(at: 0)
        }
    }

    /// Throws an ``SQLiteError`` unless `code` is `SQLITE_OK`.
    func check(_ code: Int32, _ operation: @autoclosure () -> String) throws {
        guard code == SQLITE_OK else { throw error(code, operation()) }
    }

    /// The error for `code`, with the connection's message when it has one.
    func error(_ code: Int32, _ operation: String) -> SQLiteError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        return SQLiteError(code: code, message: message, operation: operation)
    }

    private func openHandle(for operation: String) throws -> OpaquePointer {
        guard let handle else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "the database is closed", operation: operation)
        }
        return handle
    }
}
