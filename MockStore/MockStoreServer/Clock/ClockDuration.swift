import Foundation
import StoreKitCatalogue

/// An ISO 8601 duration the clock is moved by: `P1M`, `P400D`, `PT90M`, `P1Y2M3DT4H5M6S`, `P2W`. Years and months
/// are calendar ones (added on the UTC Gregorian calendar, so `P1M` from 31 January is the end of February); the
/// rest are fixed lengths. Never negative.
public struct ClockDuration: Equatable, Sendable, CustomStringConvertible {
    public var years = 0
    public var months = 0
    public var weeks = 0
    public var days = 0
    public var hours = 0
    public var minutes = 0
    /// Seconds, with up to three decimals (milliseconds).
    public var milliseconds: Int64 = 0
    /// The text it was read from.
    public var description: String

    /// Reads `text`; `nil` for anything that is not a positive ISO 8601 duration.
    public init?(iso8601 text: String) {
        description = text
        let upper = Array(text.uppercased())
        guard upper.first == "P", upper.count >= 3 else { return nil }
        var index = 1
        var inTime = false
        var sawAny = false
        var sawTimePart = false
        var lastRank = -1
        while index < upper.count {
            if upper[index] == "T" {
                guard !inTime else { return nil }
                inTime = true
                lastRank = 3
                index += 1
                continue
            }
            var number = ""
            while index < upper.count, upper[index].isASCII, upper[index].isNumber || upper[index] == "." {
                number.append(upper[index])
                index += 1
            }
            guard !number.isEmpty, index < upper.count else { return nil }
            let designator = upper[index]
            index += 1
            guard let rank = Self.rank(designator, inTime: inTime), rank > lastRank else { return nil }
            lastRank = rank
            if designator == "S" && inTime {
                guard let seconds = Self.milliseconds(number) else { return nil }
                milliseconds = seconds
            } else {
                guard number.allSatisfy(\.isNumber), number.count <= 9, let value = Int(number) else { return nil }
                switch (designator, inTime) {
                case ("Y", false): years = value
                case ("M", false): months = value
                case ("W", false): weeks = value
                case ("D", false): days = value
                case ("H", true): hours = value
                case ("M", true): minutes = value
                default: return nil
                }
            }
            sawAny = true
            if inTime { sawTimePart = true }
        }
        guard sawAny, !inTime || sawTimePart else { return nil }
        guard years + months + weeks + days + hours + minutes > 0 || milliseconds > 0 else { return nil }
    }

    /// The order designators must come in: Y M W D, then T and H M S.
    private static func rank(_ designator: Character, inTime: Bool) -> Int? {
        switch (designator, inTime) {
        case ("Y", false): 0
        case ("M", false): 1
        case ("W", false): 2
        case ("D", false): 3
        case ("H", true): 4
        case ("M", true): 5
        case ("S", true): 6
        default: nil
        }
    }

    /// `"6"` → 6000, `"1.5"` → 1500; at most three decimals.
    private static func milliseconds(_ text: String) -> Int64? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = parts.first, !whole.isEmpty, whole.count <= 12,
            whole.allSatisfy(\.isNumber), let seconds = Int64(whole)
        else { return nil }
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.count <= 3, fraction.allSatisfy(\.isNumber), parts.count == 1 || !fraction.isEmpty else {
            return nil
        }
        fraction += String(repeating: "0", count: 3 - fraction.count)
        return seconds * 1000 + (Int64(fraction) ?? 0)
    }

    /// `date` (milliseconds since 1970) moved on by this duration, or `nil` when that is beyond what the
    /// calendar can hold.
    public func added(to date: Int64) -> Int64? {
        var components = DateComponents()
        components.year = years
        components.month = months
        components.day = weeks * 7 + days
        components.hour = hours
        components.minute = minutes
        let start = Date(timeIntervalSince1970: Double(date) / 1000)
        guard let moved = SubscriptionCalendar.calendar.date(byAdding: components, to: start) else { return nil }
        let result = (moved.timeIntervalSince1970 * 1000).rounded() + Double(milliseconds)
        guard result.isFinite, result < 253_402_300_800_000 else { return nil }  // before the year 10000
        return Int64(result)
    }
}

/// The calendar subscription periods and clock durations are added on: Gregorian, UTC.
public enum SubscriptionCalendar {
    public static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()

    /// `date` (milliseconds since 1970) plus `count` periods of `period`.
    public static func add(_ period: SubscriptionPeriod, count: Int = 1, to date: Int64) -> Int64 {
        var components = DateComponents()
        switch period.unit {
        case .day: components.day = period.value * count
        case .week: components.day = period.value * 7 * count
        case .month: components.month = period.value * count
        case .year: components.year = period.value * count
        }
        let start = Date(timeIntervalSince1970: Double(date) / 1000)
        guard let moved = calendar.date(byAdding: components, to: start) else { return date }
        return Int64((moved.timeIntervalSince1970 * 1000).rounded())
    }
}
