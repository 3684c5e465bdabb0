import Foundation
import LedgerEntries
import LedgerMoney
import Signing

/// Why a summary was refused.
public struct SummaryError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension AccountSummary {
    /// The account id of the account whose head-signing public key is `publicKey`: the first 128 bits of
    /// SHA-256("voicedebrief-account-id-v1\n" || DER SubjectPublicKeyInfo), in lowercase hex.
    public static func accountID(for publicKey: P256PublicKey) -> String {
        accountID(forDER: publicKey.derRepresentation)
    }

    /// ``accountID(for:)`` of the key whose DER SubjectPublicKeyInfo is `der`.
    static func accountID(forDER der: [UInt8]) -> String {
        let label = Array("voicedebrief-account-id-v1\n".utf8)
        return Hex.encode(Array(SHA256.hash(label + der).prefix(16)))
    }

    /// The exact bytes signed: the format's name and a newline, then every field but the signature as JSON with
    /// sorted keys and no spaces (a field that is nil is left out, so a v1 summary's bytes are what v1 signed). A
    /// verifier re-encodes what it decoded, so any change to a figure, a day, a device or the key changes them.
    public var signedBytes: [UInt8] {
        get throws {
            var unsigned = self
            unsigned.signature = ""
            let prefix = Array((format + "\n").utf8)
            // The same bytes as the encoder's below, written directly (SummaryCanonicalWriter; tested equal).
            if let bytes = SummaryCanonicalWriter.json(of: unsigned, after: prefix) { return bytes }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return prefix + Array(try encoder.encode(unsigned))
        }
    }

    /// Signs the summary with `key` (whose public key it must carry).
    public mutating func sign(with key: P256PrivateKey) throws {
        signature = Base64URL.encode(try key.signature(for: try signedBytes))
    }

    /// The summary as written to a file: JSON, keys sorted, indented, ending in a newline.
    public func encodedJSON() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [0x0A]
    }

    /// The summary in `bytes` if it verifies: its format (v2, or the older v1), its account id against its public
    /// key, its signature, its devices (pseudonyms, each once, a head each) and its figures (canonical days and
    /// times, keys that are keys, nothing negative or beyond ``SummaryLimits/maximumFigure``). Anything else throws
    /// ``SummaryError``.
    public static func verified(from bytes: [UInt8]) throws -> AccountSummary {
        try bytes.withUnsafeBufferPointer { try verified(from: $0) }
    }

    /// ``verified(from:)`` of bytes in place (a file's, read into memory once).
    static func verified(from bytes: UnsafeBufferPointer<UInt8>) throws -> AccountSummary {
        // A summary as `credit export --summary` writes it, read directly (SummaryFastReader: the same summary as
        // the decoder's, tested so); anything else the strict path below reads, and refuses in its own words.
        if let summary = SummaryFastReader.summary(from: bytes) {
            try summary.verify()
            return summary
        }
        return try strictlyVerified(from: Array(bytes))
    }

    /// ``verified(from:)`` without the fast path: the encoding (``SummaryEncoding``), the duplicate-member scan
    /// (names compared with their escapes undone), `JSONDecoder`, then ``verify()``.
    static func strictlyVerified(from bytes: [UInt8]) throws -> AccountSummary {
        if let problem = SummaryEncoding.problem(in: bytes) { throw SummaryError(problem) }
        if let name = SummaryLimits.duplicateKey(in: bytes) {
            throw SummaryError(
                "has the key \(JSONName.shown(name)) twice in one object: a summary says each thing once")
        }
        let summary: AccountSummary
        do {
            summary = try JSONDecoder().decode(AccountSummary.self, from: Data(bytes))
        } catch {
            throw SummaryError("not a summary (\(DecodingWords.describe(error)))")
        }
        try summary.verify()
        return summary
    }

    /// Throws ``SummaryError`` unless the summary verifies (see ``verified(from:)``).
    public func verify() throws {
        let formats = [
            AccountSummary.formatName, AccountSummary.deviceSectionsFormatName, AccountSummary.wholeAccountFormatName,
        ]
        guard formats.contains(format) else { throw SummaryError("unknown format \"\(format)\"") }
        guard let der = Base64URL.decode(publicKey), let key = SummaryKey(der: der) else {
            throw SummaryError("the public key is not a P-256 key")
        }
        guard account == AccountSummary.accountID(forDER: key.der) else {
            throw SummaryError("the account id is not the one of its public key")
        }
        guard let raw = Base64URL.decode(signature), key.isValidSignature(raw, for: try signedBytes) else {
            throw SummaryError("the signature does not verify: the summary was altered or signed by another key")
        }
        guard Timestamp(iso8601: exportedAt)?.iso8601 == exportedAt else {
            throw SummaryError("exportedAt is not a UTC time with milliseconds")
        }
        if coversWholeAccount {
            guard devices == nil, let days, let declines else {
                throw SummaryError("a \(format) summary has days and declines, and no devices")
            }
            try verifyRows(days, declines)
        } else {
            try verifyDevices()
        }
        try verifyMoneySettings()
    }

    /// A v3 summary names its commission (0% to 100%) and whether its money settings are placeholders; an older one
    /// has neither.
    private func verifyMoneySettings() throws {
        guard carriesMoney else {
            guard commission == nil, moneyArePlaceholders == nil else {
                throw SummaryError("a \(format) summary has no money settings: they came with money rows")
            }
            return
        }
        guard let commission, moneyArePlaceholders != nil else {
            throw SummaryError("a \(format) summary names its commission and whether its money is a placeholder")
        }
        guard SummaryLimits.problem(withKey: commission.name) == nil, (0...10_000).contains(commission.basisPoints)
        else {
            throw SummaryError("the commission is not a name and a rate from 0 to 10000 basis points")
        }
    }

    /// Each device's section: a pseudonym given once, a head from 1 to the largest figure, rows that verify.
    private func verifyDevices() throws {
        guard days == nil, declines == nil, let devices, !devices.isEmpty else {
            throw SummaryError(
                "a \(format) summary has a section for each device, at least one, and no days outside them")
        }
        var seen = Set<String>()
        for section in devices {
            guard SummaryDevice.isPseudonym(section.device) else {
                throw SummaryError("a device is not a pseudonym (32 lowercase hex digits)")
            }
            guard seen.insert(section.device).inserted else {
                throw SummaryError("device \(section.device) has two sections: a summary says each device once")
            }
            guard section.head >= 1, SummaryLimits.isFigure(section.head) else {
                throw SummaryError(
                    "device \(section.device)'s head is not a sequence from 1 to \(SummaryLimits.maximumFigure)")
            }
            try verifyRows(section.days, section.declines)
            try verifyMoneyRows(section)
        }
    }

    /// A v3 section's credit and money rows (both present, perhaps empty); none in a v2 section.
    private func verifyMoneyRows(_ section: SummaryDevice) throws {
        guard carriesMoney else {
            guard section.credit == nil, section.money == nil else {
                throw SummaryError(
                    "a \(format) summary has no credit or money rows: they came with \(AccountSummary.formatName)")
            }
            return
        }
        guard let credit = section.credit, let money = section.money else {
            throw SummaryError("device \(section.device) has no credit or money rows: a \(format) section has both")
        }
        for row in credit {
            guard isDay(row.day), CreditKind(rawValue: row.kind) != nil, row.count >= 1,
                SummaryLimits.isFigure(row.count), SummaryLimits.isFigure(row.amount)
            else { throw SummaryError("a credit row is malformed (\(row.day) \(row.kind))") }
        }
        for row in money { try verifyMoneyRow(row) }
    }

    /// A money row: a day, a kind, codes, a count, figures in range that add up to the gross (or the gross alone
    /// when the storefront's tax is unknown).
    private func verifyMoneyRow(_ row: SummaryMoney) throws {
        let figures = [row.count, row.gross, row.tax, row.commission, row.proceeds]
        guard isDay(row.day), MoneyKind(rawValue: row.kind) != nil, SaleReceipt.isCode(row.currency),
            SaleReceipt.isCode(row.storefront), row.count >= 1, figures.allSatisfy(SummaryLimits.isFigure)
        else {
            throw SummaryError("a money row is malformed (\(row.day) \(row.kind) \(row.currency) \(row.storefront))")
        }
        let parts = row.tax + row.commission + row.proceeds  // each at most 10^15: no overflow
        guard row.taxKnown ? parts == row.gross : parts == 0 else {
            throw SummaryError(
                "a money row's tax, commission and proceeds do not add up to its gross (\(row.day) \(row.currency))")
        }
    }

    /// Day rows and decline rows: keys that are keys, canonical days, figures in range.
    private func verifyRows(_ days: [SummaryDay], _ declines: [SummaryDecline]) throws {
        for row in days {
            if let problem = SummaryLimits.problem(withKey: row.feature) {
                throw SummaryError("a day row's feature is not a key: \(problem)")
            }
            let figures =
                SummaryLimits.isFigure(row.charges) && SummaryLimits.isFigure(row.charged)
                && SummaryLimits.isFigure(row.declined) && SummaryLimits.isFigure(row.givenBack)
                && SummaryLimits.isFigure(row.cost)
            guard isDay(row.day), figures else {
                throw SummaryError(
                    "a day row is malformed (\(row.day) \(row.feature)): a day, and figures from 0 to "
                        + "\(SummaryLimits.maximumFigure)")
            }
        }
        for row in declines {
            if let problem = SummaryLimits.problem(withKey: row.feature) ?? SummaryLimits.problem(withKey: row.reason) {
                throw SummaryError("a decline row's feature or reason is not a key: \(problem)")
            }
            guard isDay(row.day), SummaryLimits.isFigure(row.count), SummaryLimits.isFigure(row.givenBack) else {
                throw SummaryError("a decline row is malformed (\(row.day) \(row.feature))")
            }
        }
    }

    private func isDay(_ text: String) -> Bool {
        // A day of 2000 to 2099 as `YYYY-MM-DD` is checked by its digits (a row's day, every row of every summary);
        // any other text the timestamp round trip decides, as before.
        if let known = Self.isDayThisCentury(text) { return known }
        return Timestamp(iso8601: text + "T00:00:00.000Z")?.iso8601 == text + "T00:00:00.000Z"
    }

    /// Whether `text` is a real day of 2000 to 2099 written `YYYY-MM-DD`; nil when it is not of that shape at all.
    static func isDayThisCentury(_ text: String) -> Bool? {
        // A row's day is a small string, read in place: no copy is made.
        let shape =
            text.utf8.withContiguousStorageIfAvailable(dayShape) ?? Array(text.utf8).withUnsafeBufferPointer(dayShape)
        guard let (year, month, day) = shape else { return nil }
        guard (1...12).contains(month) else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let length =
            switch month {
            case 2: leap ? 29 : 28
            case 4, 6, 9, 11: 30
            default: 31
            }
        return (1...length).contains(day)
    }

    /// The year, month and day of `bytes` when they are `20YY-MM-DD`, digits where digits go; nil otherwise.
    private static func dayShape(_ bytes: UnsafeBufferPointer<UInt8>) -> (year: Int, month: Int, day: Int)? {
        guard bytes.count == 10, bytes[0] == 0x32, bytes[1] == 0x30, bytes[4] == 0x2D, bytes[7] == 0x2D else {
            return nil
        }
        func digits(_ at: Int) -> Int? {
            let (tens, units) = (bytes[at], bytes[at + 1])
            guard (0x30...0x39).contains(tens), (0x30...0x39).contains(units) else { return nil }
            return Int(tens - 0x30) * 10 + Int(units - 0x30)
        }
        guard let year = digits(2), let month = digits(5), let day = digits(8) else { return nil }
        return (2000 + year, month, day)
    }
}

/// A summary's public key, as it verifies: the point of the one form this package writes (``P256PointKey``, a fraction
/// of the cost of a key imported by OpenSSL's provider, once for every summary), any other form as
/// ``P256PublicKey`` reads it. Both verify the same signatures.
private enum SummaryKey {
    case point(P256PointKey, der: [UInt8])
    case imported(P256PublicKey)

    /// Nil when `der` is not a P-256 key.
    init?(der: [UInt8]) {
        do {
            if let point = try P256PointKey(derRepresentation: der) {
                self = .point(point, der: der)
            } else {
                self = .imported(try P256PublicKey(derRepresentation: der))
            }
        } catch {
            return nil
        }
    }

    /// The DER SubjectPublicKeyInfo the account id is of.
    var der: [UInt8] {
        switch self {
        case .point(_, let der): der
        case .imported(let key): key.derRepresentation
        }
    }

    func isValidSignature(_ raw: [UInt8], for message: [UInt8]) -> Bool {
        switch self {
        case .point(let key, _): key.isValidSignature(raw, for: message)
        case .imported(let key): key.isValidSignature(raw, for: message)
        }
    }
}
