/// The one encoding a summary is read in, by `credit pnl --summaries`, `credit-summary-verify` and (through it)
/// `analytics/pnl.sh` alike: UTF-8, without a byte-order mark. Swift's decoder would also take a mark, or UTF-16,
/// where DuckDB and Spark stop; a summary is refused by name instead, and the rest are counted.
enum SummaryEncoding {
    /// Why `bytes` are not a summary's encoding, in words that follow the file's name; nil when they are UTF-8
    /// without a byte-order mark. A NUL byte is never in a JSON text written in UTF-8 (it is in UTF-16 and UTF-32).
    static func problem(in bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return "starts with a byte-order mark: a summary is UTF-8 without one"
        }
        if bytes.contains(0) || String(validating: bytes, as: UTF8.self) == nil {
            return "is not UTF-8 (UTF-16, or another encoding): a summary is UTF-8"
        }
        return nil
    }
}
