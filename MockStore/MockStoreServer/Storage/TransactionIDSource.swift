/// Makes a transaction id from the store's transaction serial number.
///
/// The serial (1, 2, 3, …) is a counter kept in SQLite and incremented in the same database transaction
/// that records the purchase, so a restart never reuses a number. Tests inject their own source.
public protocol TransactionIDSource: Sendable {
    /// The transaction id for serial number `serial` (1 for the first transaction the store ever makes).
    func transactionID(forSerial serial: Int64) -> String
}

/// Numeric ids shaped like Apple's sandbox ones: `2000000` followed by the serial on nine digits,
/// e.g. `2000000000000001` (16 digits, like `2000000376851165`).
public struct SandboxTransactionIDs: TransactionIDSource {
    public var prefix: String
    public var digits: Int

    public init(prefix: String = "2000000", digits: Int = 9) {
        self.prefix = prefix
        self.digits = digits
    }

    public func transactionID(forSerial serial: Int64) -> String {
        let number = String(serial)
        let padding = String(repeating: "0", count: max(0, digits - number.count))
        return prefix + padding + number
    }
}
