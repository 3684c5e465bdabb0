import LedgerEntries
import LedgerMoney
import SafeText

/// Dates as people write them (`29 November 2026`), from the ISO 8601 the figures carry, always in UTC, as the
/// windows are.
enum PeopleDate {
    private static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// `29 November 2026` from `2026-11-29…`; nil when the text does not start with such a date.
    static func day(_ iso8601: String) -> String? {
        let parts = iso8601.prefix(10).split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        return "\(day) \(months[month - 1]) \(year)"
    }

    /// `29 November 2026, 12:00 UTC` from `2026-11-29T12:00:00.000Z`; nil when it is not such a time.
    static func dayAndTime(_ iso8601: String) -> String? {
        let chars = Array(iso8601)
        guard let day = day(iso8601), chars.count >= 16, chars[10] == "T", chars[13] == ":",
            let hour = Int(String(chars[11..<13])), let minute = Int(String(chars[14..<16])), (0...23).contains(hour),
            (0...59).contains(minute)
        else { return nil }
        return day + ", " + (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute) UTC"
    }

    /// The day for the page: made of digits, letters and spaces only, so it needs no escaping; the text escaped when
    /// it is not a date.
    static func dayHTML(_ iso8601: String) -> String { day(iso8601) ?? HTMLText.escape(iso8601) }

    /// The day and minute for the page: digits, letters, spaces, a comma and the colon of the time only (no
    /// scheme can be made of them), so they need no escaping; the text escaped when it is not such a time.
    static func dayAndTimeHTML(_ iso8601: String) -> String { dayAndTime(iso8601) ?? HTMLText.escape(iso8601) }
}
