import CSQLite

/// An error from SQLite: its result code, its message and what the store was doing.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// SQLite's (extended) result code, e.g. `SQLITE_CONSTRAINT_PRIMARYKEY`.
    public var code: Int32
    /// SQLite's own explanation, from `sqlite3_errmsg` or `sqlite3_errstr`.
    public var message: String
    /// What was being done, e.g. `opening /data/mockstore.sqlite` or the SQL text.
    public var operation: String

    /// An error with SQLite's `code` and `message`, met while doing `operation`.
    public init(code: Int32, message: String, operation: String) {
        self.code = code
        self.message = message
        self.operation = operation
    }

    public var description: String {
        "SQLite error \(code) (\(message)) while \(operation)"
    }

    /// `SQLITE_ERROR`: a generic failure, for what SQLite did not report itself.
    public static let genericCode: Int32 = SQLITE_ERROR
    /// `SQLITE_CORRUPT`: for a row holding a value the code never writes.
    public static let corruptCode: Int32 = SQLITE_CORRUPT
    /// `SQLITE_IOERR_FSYNC`: a flush of the WAL to the disk failed (``WriteAheadLog``).
    public static let ioErrorCode: Int32 = SQLITE_IOERR | (4 << 8)

    /// The primary result code (the low byte of the extended code), e.g. `SQLITE_CONSTRAINT`.
    public var primaryCode: Int32 { code & 0xFF }
}
