import LedgerEntries
import LedgerMoney

/// The fast path of reading and signing a summary: what `credit pnl --summaries` does for every file, so that a
/// hundred thousand accounts verify in seconds. It is promised equal to the strict path (`JSONDecoder` after the
/// duplicate-member scan; `JSONEncoder` with sorted keys for the signed bytes) and tested so (`SummaryFastPathTests`):
///
/// - ``SummaryFastReader`` reads the JSON a summary is written as (objects of known members, each once; strings of
///   printable ASCII without escapes; integers; `true`, `false`) into the same ``AccountSummary`` `JSONDecoder`
///   makes. Anything else (an unknown or repeated member, `null`, an escape, a fraction, a byte that is not printable
///   ASCII in a string) gives nil, and the strict path decides, with its own words.
/// - ``SummaryCanonicalWriter`` writes the bytes `JSONEncoder` writes with `.sortedKeys` and
///   `.withoutEscapingSlashes` and no spaces, or nil when a string holds anything but printable ASCII without `"` or
///   `\` (then `JSONEncoder` writes them).
///
/// Neither checks anything the strict path checks: ``AccountSummary/verify()`` does, the same on both paths.
enum SummaryFastReader {
    /// The summary in `bytes`, or nil when the strict path is to read it.
    static func summary(from bytes: [UInt8]) -> AccountSummary? {
        bytes.withUnsafeBufferPointer { summary(from: $0) }
    }

    /// The summary in `bytes`, or nil when the strict path is to read it.
    static func summary(from bytes: UnsafeBufferPointer<UInt8>) -> AccountSummary? {
        var cursor = JSONCursor(bytes)
        guard let summary = try? cursor.summary(), cursor.atEnd() else { return nil }
        return summary
    }
}

/// Why the fast reader stops: the strict path reads the file instead.
struct FastPathDeclined: Error {}

/// A position in the bytes of one summary, reading the members the summary types have.
struct JSONCursor {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Whether only white space is left.
    mutating func atEnd() -> Bool {
        skipSpace()
        return index == bytes.count
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func take(_ byte: UInt8) throws(FastPathDeclined) {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { throw FastPathDeclined() }
        index += 1
    }

    /// Whether the next byte (after white space) is `byte`, taken if so.
    private mutating func taking(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// A string of printable ASCII with no escape.
    mutating func string() throws(FastPathDeclined) -> String {
        try take(UInt8(ascii: "\""))
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { throw FastPathDeclined() }
            index += 1
        }
        throw FastPathDeclined()
    }

    /// An integer as JSON writes one: an optional minus, then 0 or digits not starting with 0; no fraction or
    /// exponent, within Int64.
    mutating func integer() throws(FastPathDeclined) -> Int64 {
        skipSpace()
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let start = index
        var magnitude: UInt64 = 0
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
            let (times, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(bytes[index] - 0x30))
            guard !overflow, !carry else { throw FastPathDeclined() }
            magnitude = sum
            index += 1
        }
        guard index > start, bytes[start] != 0x30 || index == start + 1 else { throw FastPathDeclined() }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e") {
            throw FastPathDeclined()
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw FastPathDeclined() }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw FastPathDeclined() }
        return Int64(magnitude)
    }

    mutating func bool() throws(FastPathDeclined) -> Bool {
        skipSpace()
        if bytes.count - index >= 4, bytes[index..<(index + 4)].elementsEqual(Self.trueWord) {
            index += 4
            return true
        }
        if bytes.count - index >= 5, bytes[index..<(index + 5)].elementsEqual(Self.falseWord) {
            index += 5
            return false
        }
        throw FastPathDeclined()
    }

    private static let trueWord = Array("true".utf8)
    private static let falseWord = Array("false".utf8)

    /// Reads an object, calling `member` with each member's name (at its value). `member` reads each value into its
    /// slot with ``fill(_:_:)``, so that a name given twice declines.
    mutating func object(_ member: (inout JSONCursor, String) throws(FastPathDeclined) -> Void) throws(FastPathDeclined)
    {
        try take(UInt8(ascii: "{"))
        if taking(UInt8(ascii: "}")) { return }
        repeat {
            let name = try string()
            try take(UInt8(ascii: ":"))
            try member(&self, name)
        } while taking(UInt8(ascii: ","))
        try take(UInt8(ascii: "}"))
    }

    /// Reads an array, each element by `element`.
    mutating func array<Element>(_ element: (inout JSONCursor) throws(FastPathDeclined) -> Element)
        throws(FastPathDeclined) -> [Element]
    {
        try take(UInt8(ascii: "["))
        var elements: [Element] = []
        if taking(UInt8(ascii: "]")) { return elements }
        repeat { elements.append(try element(&self)) } while taking(UInt8(ascii: ","))
        try take(UInt8(ascii: "]"))
        return elements
    }
}

/// `value` into `slot`, which must still be empty: a member given twice declines (the strict path refuses it by name).
@inline(__always)
func fill<Value>(_ slot: inout Value?, _ value: Value) throws(FastPathDeclined) {
    guard slot == nil else { throw FastPathDeclined() }
    slot = value
}

extension JSONCursor {
    mutating func summary() throws(FastPathDeclined) -> AccountSummary {
        var format: String?
        var account: String?
        var exportedAt: String?
        var publicKey: String?
        var placeholders: Bool?
        var commission: CommissionRate?
        var moneyPlaceholders: Bool?
        var devices: [SummaryDevice]?
        var days: [SummaryDay]?
        var declines: [SummaryDecline]?
        var signature: String?
        try object { (cursor, name) throws(FastPathDeclined) in
            switch name {
            case "format": try fill(&format, try cursor.string())
            case "account": try fill(&account, try cursor.string())
            case "exportedAt": try fill(&exportedAt, try cursor.string())
            case "publicKey": try fill(&publicKey, try cursor.string())
            case "costsArePlaceholders": try fill(&placeholders, try cursor.bool())
            case "commission": try fill(&commission, try cursor.commission())
            case "moneyArePlaceholders": try fill(&moneyPlaceholders, try cursor.bool())
            case "devices": try fill(&devices, try cursor.array { (c) throws(FastPathDeclined) in try c.device() })
            case "days": try fill(&days, try cursor.array { (c) throws(FastPathDeclined) in try c.day() })
            case "declines": try fill(&declines, try cursor.array { (c) throws(FastPathDeclined) in try c.decline() })
            case "signature": try fill(&signature, try cursor.string())
            default: throw FastPathDeclined()
            }
        }
        guard let format, let account, let exportedAt, let publicKey, let placeholders, let signature else {
            throw FastPathDeclined()
        }
        var summary = AccountSummary(
            account: account, exportedAt: exportedAt, publicKey: publicKey, costsArePlaceholders: placeholders,
            devices: [], signature: signature)
        summary.format = format
        summary.devices = devices
        summary.commission = commission
        summary.moneyArePlaceholders = moneyPlaceholders
        summary.days = days
        summary.declines = declines
        return summary
    }

    mutating func commission() throws(FastPathDeclined) -> CommissionRate {
        var name: String?
        var basisPoints: Int64?
        try object { (cursor, member) throws(FastPathDeclined) in
            switch member {
            case "name": try fill(&name, try cursor.string())
            case "basisPoints": try fill(&basisPoints, try cursor.integer())
            default: throw FastPathDeclined()
            }
        }
        guard let name, let basisPoints, let points = Int(exactly: basisPoints) else { throw FastPathDeclined() }
        return CommissionRate(name: name, basisPoints: points)
    }

    mutating func device() throws(FastPathDeclined) -> SummaryDevice {
        var device: String?
        var head: Int64?
        var days: [SummaryDay]?
        var declines: [SummaryDecline]?
        var credit: [SummaryCredit]?
        var money: [SummaryMoney]?
        try object { (cursor, name) throws(FastPathDeclined) in
            switch name {
            case "device": try fill(&device, try cursor.string())
            case "head": try fill(&head, try cursor.integer())
            case "days": try fill(&days, try cursor.array { (c) throws(FastPathDeclined) in try c.day() })
            case "declines": try fill(&declines, try cursor.array { (c) throws(FastPathDeclined) in try c.decline() })
            case "credit": try fill(&credit, try cursor.array { (c) throws(FastPathDeclined) in try c.credit() })
            case "money": try fill(&money, try cursor.array { (c) throws(FastPathDeclined) in try c.money() })
            default: throw FastPathDeclined()
            }
        }
        guard let device, let head, let days, let declines else { throw FastPathDeclined() }
        return SummaryDevice(device: device, head: head, days: days, declines: declines, credit: credit, money: money)
    }

    mutating func day() throws(FastPathDeclined) -> SummaryDay {
        var day: String?
        var feature: String?
        var charges: Int64?
        var charged: Int64?
        var declined: Int64?
        var givenBack: Int64?
        var cost: Int64?
        try object { (cursor, name) throws(FastPathDeclined) in
            switch name {
            case "day": try fill(&day, try cursor.string())
            case "feature": try fill(&feature, try cursor.string())
            case "charges": try fill(&charges, try cursor.integer())
            case "charged": try fill(&charged, try cursor.integer())
            case "declined": try fill(&declined, try cursor.integer())
            case "givenBack": try fill(&givenBack, try cursor.integer())
            case "cost": try fill(&cost, try cursor.integer())
            default: throw FastPathDeclined()
            }
        }
        guard let day, let feature, let charges, let charged, let declined, let givenBack, let cost else {
            throw FastPathDeclined()
        }
        return SummaryDay(
            day: day, feature: feature, charges: charges, charged: charged, declined: declined, givenBack: givenBack,
            cost: cost)
    }

    mutating func decline() throws(FastPathDeclined) -> SummaryDecline {
        var day: String?
        var feature: String?
        var reason: String?
        var count: Int64?
        var givenBack: Int64?
        try object { (cursor, name) throws(FastPathDeclined) in
            switch name {
            case "day": try fill(&day, try cursor.string())
            case "feature": try fill(&feature, try cursor.string())
            case "reason": try fill(&reason, try cursor.string())
            case "count": try fill(&count, try cursor.integer())
            case "givenBack": try fill(&givenBack, try cursor.integer())
            default: throw FastPathDeclined()
            }
        }
        guard let day, let feature, let reason, let count, let givenBack else { throw FastPathDeclined() }
        return SummaryDecline(day: day, feature: feature, reason: reason, count: count, givenBack: givenBack)
    }

    mutating func credit() throws(FastPathDeclined) -> SummaryCredit {
        var day: String?
        var kind: String?
        var count: Int64?
        var amount: Int64?
        try object { (cursor, name) throws(FastPathDeclined) in
            switch name {
            case "day": try fill(&day, try cursor.string())
            case "kind": try fill(&kind, try cursor.string())
            case "count": try fill(&count, try cursor.integer())
            case "amount": try fill(&amount, try cursor.integer())
            default: throw FastPathDeclined()
            }
        }
        guard let day, let kind, let count, let amount else { throw FastPathDeclined() }
        return SummaryCredit(day: day, kind: kind, count: count, amount: amount)
    }

    mutating func money() throws(FastPathDeclined) -> SummaryMoney {
        var day: String?
        var kind: String?
        var currency: String?
        var storefront: String?
        var taxKnown: Bool?
        var count: Int64?
        var gross: Int64?
        var tax: Int64?
        var commission: Int64?
        var proceeds: Int64?
        try object { (cursor, name) throws(FastPathDeclined) in
            switch name {
            case "day": try fill(&day, try cursor.string())
            case "kind": try fill(&kind, try cursor.string())
            case "currency": try fill(&currency, try cursor.string())
            case "storefront": try fill(&storefront, try cursor.string())
            case "taxKnown": try fill(&taxKnown, try cursor.bool())
            case "count": try fill(&count, try cursor.integer())
            case "gross": try fill(&gross, try cursor.integer())
            case "tax": try fill(&tax, try cursor.integer())
            case "commission": try fill(&commission, try cursor.integer())
            case "proceeds": try fill(&proceeds, try cursor.integer())
            default: throw FastPathDeclined()
            }
        }
        guard let day, let kind, let currency, let storefront, let taxKnown, let count, let gross, let tax,
            let commission, let proceeds
        else { throw FastPathDeclined() }
        return SummaryMoney(
            day: day, kind: kind, currency: currency, storefront: storefront, taxKnown: taxKnown, count: count,
            gross: gross, tax: tax, commission: commission, proceeds: proceeds)
    }
}

/// The signed bytes' JSON as `JSONEncoder` writes it (sorted keys, no spaces, `/` unescaped), or nil.
enum SummaryCanonicalWriter {
    static func json(of summary: AccountSummary, after prefix: [UInt8] = []) -> [UInt8]? {
        var writer = Writer()
        writer.bytes.append(contentsOf: prefix)
        writer.summary(summary)
        return writer.plain ? writer.bytes : nil
    }

    /// Writes members in the order given, which is the sorted order of their names (each caller lists them so).
    private struct Writer {
        var bytes: [UInt8] = []
        /// False once a string needed escaping (or was not printable ASCII): the caller falls back.
        var plain = true
        private var first: [Bool] = []

        init() {
            bytes.reserveCapacity(8192)
            first.reserveCapacity(8)
        }

        mutating func open(_ byte: UInt8) {
            bytes.append(byte)
            first.append(true)
        }

        mutating func close(_ byte: UInt8) {
            bytes.append(byte)
            first.removeLast()
        }

        private mutating func comma() {
            if first[first.count - 1] { first[first.count - 1] = false } else { bytes.append(UInt8(ascii: ",")) }
        }

        mutating func key(_ name: StaticString) {
            comma()
            bytes.append(UInt8(ascii: "\""))
            name.withUTF8Buffer { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        }

        mutating func element() { comma() }

        mutating func string(_ text: String) {
            bytes.append(UInt8(ascii: "\""))
            for byte in text.utf8 {
                if byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    plain = false
                }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        }

        /// The decimal digits of `value`, as `String(value)` writes them.
        mutating func integer<Number: BinaryInteger>(_ value: Number) {
            let number = Int64(exactly: value)
            guard let number else {
                bytes.append(contentsOf: String(value).utf8)
                return
            }
            if number < 0 { bytes.append(UInt8(ascii: "-")) }
            var magnitude = number.magnitude
            let start = bytes.count
            repeat {
                bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
                magnitude /= 10
            } while magnitude > 0
            bytes[start...].reverse()
        }

        mutating func bool(_ value: Bool) {
            bytes.append(contentsOf: value ? Writer.trueWord : Writer.falseWord)
        }

        private static let trueWord = Array("true".utf8)
        private static let falseWord = Array("false".utf8)

        mutating func summary(_ s: AccountSummary) {
            open(UInt8(ascii: "{"))
            key("account")
            string(s.account)
            if let commission = s.commission {
                key("commission")
                open(UInt8(ascii: "{"))
                key("basisPoints")
                integer(commission.basisPoints)
                key("name")
                string(commission.name)
                close(UInt8(ascii: "}"))
            }
            key("costsArePlaceholders")
            bool(s.costsArePlaceholders)
            if let days = s.days {
                key("days")
                list(days) { $0.day($1) }
            }
            if let declines = s.declines {
                key("declines")
                list(declines) { $0.decline($1) }
            }
            if let devices = s.devices {
                key("devices")
                list(devices) { $0.device($1) }
            }
            key("exportedAt")
            string(s.exportedAt)
            key("format")
            string(s.format)
            if let moneyArePlaceholders = s.moneyArePlaceholders {
                key("moneyArePlaceholders")
                bool(moneyArePlaceholders)
            }
            key("publicKey")
            string(s.publicKey)
            key("signature")
            string(s.signature)
            close(UInt8(ascii: "}"))
        }

        mutating func list<Item>(_ items: [Item], _ write: (inout Writer, Item) -> Void) {
            open(UInt8(ascii: "["))
            for item in items {
                element()
                write(&self, item)
            }
            close(UInt8(ascii: "]"))
        }

        mutating func device(_ d: SummaryDevice) {
            open(UInt8(ascii: "{"))
            if let credit = d.credit {
                key("credit")
                list(credit) { $0.credit($1) }
            }
            key("days")
            list(d.days) { $0.day($1) }
            key("declines")
            list(d.declines) { $0.decline($1) }
            key("device")
            string(d.device)
            key("head")
            integer(d.head)
            if let money = d.money {
                key("money")
                list(money) { $0.money($1) }
            }
            close(UInt8(ascii: "}"))
        }

        mutating func day(_ d: SummaryDay) {
            open(UInt8(ascii: "{"))
            key("charged")
            integer(d.charged)
            key("charges")
            integer(d.charges)
            key("cost")
            integer(d.cost)
            key("day")
            string(d.day)
            key("declined")
            integer(d.declined)
            key("feature")
            string(d.feature)
            key("givenBack")
            integer(d.givenBack)
            close(UInt8(ascii: "}"))
        }

        mutating func decline(_ d: SummaryDecline) {
            open(UInt8(ascii: "{"))
            key("count")
            integer(d.count)
            key("day")
            string(d.day)
            key("feature")
            string(d.feature)
            key("givenBack")
            integer(d.givenBack)
            key("reason")
            string(d.reason)
            close(UInt8(ascii: "}"))
        }

        mutating func credit(_ c: SummaryCredit) {
            open(UInt8(ascii: "{"))
            key("amount")
            integer(c.amount)
            key("count")
            integer(c.count)
            key("day")
            string(c.day)
            key("kind")
            string(c.kind)
            close(UInt8(ascii: "}"))
        }

        mutating func money(_ m: SummaryMoney) {
            open(UInt8(ascii: "{"))
            key("commission")
            integer(m.commission)
            key("count")
            integer(m.count)
            key("currency")
            string(m.currency)
            key("day")
            string(m.day)
            key("gross")
            integer(m.gross)
            key("kind")
            string(m.kind)
            key("proceeds")
            integer(m.proceeds)
            key("storefront")
            string(m.storefront)
            key("tax")
            integer(m.tax)
            key("taxKnown")
            bool(m.taxKnown)
            close(UInt8(ascii: "}"))
        }
    }
}
