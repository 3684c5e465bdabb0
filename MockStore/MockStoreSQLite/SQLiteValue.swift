/// A value bound to, or read from, an SQLite statement.
public enum SQLiteValue: Equatable, Sendable {
    case integer(Int64)
    case text(String)
    case null

    /// `.text(value)`, or `.null` when the value is absent.
    public static func optional(_ value: String?) -> SQLiteValue {
        value.map(SQLiteValue.text) ?? .null
    }
}
