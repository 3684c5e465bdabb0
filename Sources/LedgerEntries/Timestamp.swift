/// A moment in UTC, as whole milliseconds since 1970. Written in entries as `2026-11-29T18:06:49.123Z`.
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// This moment moved by `days` days (negative for the past).
    public func adding(days: Int64) -> Timestamp {
        Timestamp(milliseconds: milliseconds + days * 86_400_000)
    }

    /// ISO 8601, UTC, with milliseconds.
    public var iso8601: String {
        let days = milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000
        let msOfDay = milliseconds - days * 86_400_000
        let (year, month, day) = Timestamp.civil(fromDays: days)
        let hour = msOfDay / 3_600_000
        let minute = (msOfDay / 60_000) % 60
        let second = (msOfDay / 1000) % 60
        let millis = msOfDay % 1000
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(hour, 2) + ":" + pad(minute, 2) + ":"
            + pad(second, 2) + "." + pad(millis, 3) + "Z"
    }

    /// Appends the ISO 8601 form's 24 bytes to `out`, without making a String.
    func appendISO8601(to out: inout [UInt8]) {
        let days = milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000
        let msOfDay = milliseconds - days * 86_400_000
        let (year, month, day) = Timestamp.civil(fromDays: days)
        guard (0...9999).contains(year) else {
            out.append(contentsOf: iso8601.utf8)
            return
        }
        func digits(_ value: Int64, _ count: Int) {
            var divisor: Int64 = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                out.append(UInt8(truncatingIfNeeded: rest / divisor) + 0x30)
                rest %= divisor
                divisor /= 10
            }
        }
        digits(year, 4)
        out.append(UInt8(ascii: "-"))
        digits(month, 2)
        out.append(UInt8(ascii: "-"))
        digits(day, 2)
        out.append(UInt8(ascii: "T"))
        digits(msOfDay / 3_600_000, 2)
        out.append(UInt8(ascii: ":"))
        digits((msOfDay / 60_000) % 60, 2)
        out.append(UInt8(ascii: ":"))
        digits((msOfDay / 1000) % 60, 2)
        out.append(UInt8(ascii: "."))
        digits(msOfDay % 1000, 3)
        out.append(UInt8(ascii: "Z"))
    }

    /// The date and minute, for people: `2026-11-29 18:06`.
    public var shortDisplay: String {
        let text = iso8601
        let chars = Array(text)
        return String(chars[0..<10]) + " " + String(chars[11..<16])
    }

    public var description: String { iso8601 }

    /// Parses exactly `YYYY-MM-DDTHH:MM:SS.mmmZ` (the form entries are written in); nil for anything else.
    public init?(iso8601 text: Substring.UTF8View) {
        let bytes = Array(text)
        let parsed = bytes.withUnsafeBufferPointer { Timestamp(iso8601Bytes: $0) }
        guard let parsed else { return nil }
        self = parsed
    }

    /// Parses the written form from raw bytes.
    init?(iso8601Bytes bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 24, let base = bytes.baseAddress, let days = Timestamp.days(iso8601Date: base),
            let clock = Timestamp.milliseconds(iso8601Clock: base)
        else { return nil }
        milliseconds = days * 86_400_000 + clock
    }

    /// The days since 1970-01-01 of the date that starts the written form (`YYYY-MM-DD`, its first 10 bytes), or
    /// nil when it is not a real date written that way.
    static func days(iso8601Date bytes: UnsafePointer<UInt8>) -> Int64? {
        guard bytes[4] == 0x2D, bytes[7] == 0x2D, let year = number(bytes, 0, 4), let month = number(bytes, 5, 2),
            let day = number(bytes, 8, 2), (1...12).contains(month), day >= 1,
            day <= Timestamp.daysIn(month: month, year: year)
        else { return nil }
        return Timestamp.days(fromCivil: year, month, day)
    }

    /// The milliseconds into the day of the written form's time (`THH:MM:SS.mmmZ`, its bytes 10 to 23), or nil
    /// when it is not a time written that way.
    static func milliseconds(iso8601Clock bytes: UnsafePointer<UInt8>) -> Int64? {
        guard bytes[10] == 0x54, bytes[13] == 0x3A, bytes[16] == 0x3A, bytes[19] == 0x2E, bytes[23] == 0x5A,
            let hour = number(bytes, 11, 2), let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2),
            let millis = number(bytes, 20, 3), hour < 24, minute < 60, second < 60
        else { return nil }
        return hour * 3_600_000 + minute * 60_000 + second * 1000 + millis
    }

    /// The decimal number in `count` bytes from `from`, or nil when one is not a digit.
    @inline(__always)
    private static func number(_ bytes: UnsafePointer<UInt8>, _ from: Int, _ count: Int) -> Int64? {
        var value: Int64 = 0
        for index in from..<(from + count) {
            let digit = bytes[index] &- 0x30
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
        }
        return value
    }

    /// Parses the written form from a string.
    public init?(iso8601 text: String) {
        self.init(iso8601: Substring(text).utf8)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days-from-civil algorithms: exact for the proleptic Gregorian calendar.
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (month <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, month, day)
    }
}

private func pad(_ value: Int64, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
}
