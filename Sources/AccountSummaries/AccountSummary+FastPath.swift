import CreditLedger

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
        bytes.withUnsafeBufferPointer { buffer in
            var cursor = JSONCursor(buffer)
            guard let summary = try? cursor.summary(), cursor.atEnd() else { return nil }
            return summary
        }
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
        if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
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
        for (word, value) in [(Self.trueWord, true), (Self.falseWord, false)]
        where bytes.count - index >= word.count && bytes[index..<(index + word.count)].elementsEqual(word) {
            index += word.count
            return value
        }
        throw FastPathDeclined()
    }

    private static let trueWord = Array("true".utf8)
    private static let falseWord = Array("false".utf8)

    /// Reads an object, calling `member` with each member's name (at its value); a name given twice declines.
    mutating func object(_ member: (inout JSONCursor, String) throws(FastPathDeclined) -> Void) throws(FastPathDeclined)
    {
        try take(UInt8(ascii: "{"))
        if taking(UInt8(ascii: "}")) { return }
        var seen: [String] = []
        repeat {
            let name = try string()
            guard !seen.contains(name) else { throw FastPathDeclined() }
            seen.append(name)
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
            case "format": format = try cursor.string()
            case "account": account = try cursor.string()
            case "exportedAt": exportedAt = try cursor.string()
            case "publicKey": publicKey = try cursor.string()
            case "costsArePlaceholders": placeholders = try cursor.bool()
            case "commission": commission = try cursor.commission()
            case "moneyArePlaceholders": moneyPlaceholders = try cursor.bool()
            case "devices": devices = try cursor.array { (c) throws(FastPathDeclined) in try c.device() }
            case "days": days = try cursor.array { (c) throws(FastPathDeclined) in try c.day() }
            case "declines": declines = try cursor.array { (c) throws(FastPathDeclined) in try c.decline() }
            case "signature": signature = try cursor.string()
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
            case "name": name = try cursor.string()
            case "basisPoints": basisPoints = try cursor.integer()
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
            case "device": device = try cursor.string()
            case "head": head = try cursor.integer()
            case "days": days = try cursor.array { (c) throws(FastPathDeclined) in try c.day() }
            case "declines": declines = try cursor.array { (c) throws(FastPathDeclined) in try c.decline() }
            case "credit": credit = try cursor.array { (c) throws(FastPathDeclined) in try c.credit() }
            case "money": money = try cursor.array { (c) throws(FastPathDeclined) in try c.money() }
            default: throw FastPathDeclined()
            }
        }
        guard let device, let head, let days, let declines else { throw FastPathDeclined() }
        return SummaryDevice(device: device, head: head, days: days, declines: declines, credit: credit, money: money)
    }

    mutating func day() throws(FastPathDeclined) -> SummaryDay {
        var day: String?
        var feature: String?
        var figures = [Int64?](repeating: nil, count: 5)
        try object { (cursor, name) throws(FastPathDeclined) in
            switch name {
            case "day": day = try cursor.string()
            case "feature": feature = try cursor.string()
            case "charges": figures[0] = try cursor.integer()
            case "charged": figures[1] = try cursor.integer()
            case "declined": figures[2] = try cursor.integer()
            case "givenBack": figures[3] = try cursor.integer()
            case "cost": figures[4] = try cursor.integer()
            default: throw FastPathDeclined()
            }
        }
        guard let day, let feature, let charges = figures[0], let charged = figures[1], let declined = figures[2],
            let givenBack = figures[3], let cost = figures[4]
        else { throw FastPathDeclined() }
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
            case "day": day = try cursor.string()
            case "feature": feature = try cursor.string()
            case "reason": reason = try cursor.string()
            case "count": count = try cursor.integer()
            case "givenBack": givenBack = try cursor.integer()
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
            case "day": day = try cursor.string()
            case "kind": kind = try cursor.string()
            case "count": count = try cursor.integer()
            case "amount": amount = try cursor.integer()
            default: throw FastPathDeclined()
            }
        }
        guard let day, let kind, let count, let amount else { throw FastPathDeclined() }
        return SummaryCredit(day: day, kind: kind, count: count, amount: amount)
    }

    mutating func money() throws(FastPathDeclined) -> SummaryMoney {
        var texts = [String?](repeating: nil, count: 4)
        var taxKnown: Bool?
        var figures = [Int64?](repeating: nil, count: 5)
        try object { (cursor, name) throws(FastPathDeclined) in
            switch name {
            case "day": texts[0] = try cursor.string()
            case "kind": texts[1] = try cursor.string()
            case "currency": texts[2] = try cursor.string()
            case "storefront": texts[3] = try cursor.string()
            case "taxKnown": taxKnown = try cursor.bool()
            case "count": figures[0] = try cursor.integer()
            case "gross": figures[1] = try cursor.integer()
            case "tax": figures[2] = try cursor.integer()
            case "commission": figures[3] = try cursor.integer()
            case "proceeds": figures[4] = try cursor.integer()
            default: throw FastPathDeclined()
            }
        }
        guard let day = texts[0], let kind = texts[1], let currency = texts[2], let storefront = texts[3],
            let taxKnown, let count = figures[0], let gross = figures[1], let tax = figures[2],
            let commission = figures[3], let proceeds = figures[4]
        else { throw FastPathDeclined() }
        return SummaryMoney(
            day: day, kind: kind, currency: currency, storefront: storefront, taxKnown: taxKnown, count: count,
            gross: gross, tax: tax, commission: commission, proceeds: proceeds)
    }
}

/// The signed bytes' JSON as `JSONEncoder` writes it (sorted keys, no spaces, `/` unescaped), or nil.
enum SummaryCanonicalWriter {
    static func json(of summary: AccountSummary) -> [UInt8]? {
        var writer = Writer()
        writer.summary(summary)
        return writer.plain ? writer.bytes : nil
    }

    /// Writes members in the order given, which is the sorted order of their names (each caller lists them so).
    private struct Writer {
        var bytes: [UInt8] = []
        /// False once a string needed escaping (or was not printable ASCII): the caller falls back.
        var plain = true
        private var first: [Bool] = []

        init() { bytes.reserveCapacity(4096) }

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

        mutating func integer<Number: BinaryInteger>(_ value: Number) {
            bytes.append(contentsOf: String(value).utf8)
        }

        mutating func bool(_ value: Bool) {
            bytes.append(contentsOf: value ? Array("true".utf8) : Array("false".utf8))
        }

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
