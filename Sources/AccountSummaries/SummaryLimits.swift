/// What a summary may hold, beyond its signature: a summary is input from anyone (a key of its own makes one), so
/// `credit pnl --summaries` and `analytics/pnl.sh` (through `credit-summary-verify`) refuse by name what would not be
/// a real account's.
public enum SummaryLimits {
    /// The largest figure of a row: a count, or an amount in micro-credits (a billion pounds). Far above any real
    /// account's day, and small enough that the totals of very many summaries stay exact in 64 bits.
    public static let maximumFigure: Int64 = 1_000_000_000_000_000

    /// The longest feature or reason key, in bytes.
    public static let maximumKeyLength = 64

    /// Whether `figure` is one a row may hold.
    public static func isFigure(_ figure: Int64) -> Bool { (0...maximumFigure).contains(figure) }

    /// Why `key` (a feature or a reason) is not a key, or nil: 1 to 64 bytes of printable ASCII, no space.
    public static func problem(withKey key: String) -> String? {
        let bytes = key.utf8
        guard !bytes.isEmpty, bytes.count <= maximumKeyLength else {
            return "a key of \(bytes.count) bytes (1 to \(maximumKeyLength))"
        }
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return "a key with a space, a control or a non-ASCII character"
        }
        return nil
    }

    /// The first object member name that appears twice in one JSON object of `bytes`, or nil. Names are compared as
    /// a decoder reads them, escapes undone (`"gro\u0073s"` is `gross`), as every reader of the summary would. A
    /// decoder keeps one of the two (Swift's the first, DuckDB's reader refuses): a summary that says two things is
    /// refused.
    public static func duplicateKey(in bytes: [UInt8]) -> String? {
        var objects: [Set<[UInt8]>?] = []  // one entry per open object or array (nil: an array)
        var index = 0
        var expectingKey = false
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                objects.append([])
                expectingKey = true
            case UInt8(ascii: "["):
                objects.append(nil)
                expectingKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !objects.isEmpty { objects.removeLast() }
                expectingKey = false
            case UInt8(ascii: ","):
                expectingKey = objects.last.map { $0 != nil } ?? false
            case UInt8(ascii: "\""):
                let end = stringEnd(bytes, from: index)
                if expectingKey, let last = objects.indices.last, objects[last] != nil {
                    let name = JSONName.unescaped(bytes[(index + 1)..<max(index + 1, end - 1)])
                    if objects[last]!.insert(name).inserted == false { return String(decoding: name, as: UTF8.self) }
                    expectingKey = false
                }
                index = end
                continue
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// The index just past the JSON string that opens at `start` (its closing quote included).
    private static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if bytes[index] == UInt8(ascii: "\"") { return index + 1 }
            index += 1
        }
        return bytes.count
    }
}
