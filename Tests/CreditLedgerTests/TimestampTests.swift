import CreditLedger
import Testing

@Suite struct TimestampTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (1_795_975_609_123, "2026-11-29T18:06:49.123Z"),
        (1_709_164_800_000, "2024-02-29T00:00:00.000Z"),
        (951_868_799_999, "2000-02-29T23:59:59.999Z"),
        (4_107_542_400_000, "2100-03-01T00:00:00.000Z"),
        (-2_208_988_800_000, "1900-01-01T00:00:00.000Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    ])
    func writesAndReadsISO8601(_ milliseconds: Int64, _ text: String) throws {
        let time = Timestamp(milliseconds: milliseconds)
        #expect(time.iso8601 == text)
        #expect(time.description == text)
        let parsed = try #require(Timestamp(iso8601: text))
        #expect(parsed == time)
    }

    /// Every day from 1896 to 2104 (leap years, century years and 2000 included) survives a round trip, one day
    /// apart, at an odd time of day.
    @Test func roundTripsEveryDayAcrossCenturies() throws {
        let first = Timestamp(iso8601: "1896-01-01T07:08:09.010Z")!
        var previousDay = ""
        for offset in Int64(0)..<(209 * 366) {
            let time = first.adding(days: offset)
            let text = time.iso8601
            let back = try #require(Timestamp(iso8601: text), "\(text) does not read back")
            #expect(back == time)
            #expect(text.hasSuffix("T07:08:09.010Z"))
            let date = String(text.prefix(10))
            #expect(date > previousDay, "days must follow one another: \(previousDay) then \(date)")
            previousDay = date
            if text.hasPrefix("2105") { break }
        }
    }

    @Test(arguments: [
        ("2024-02-29T00:00:00.000Z", true),
        ("2000-02-29T00:00:00.000Z", true),
        ("2400-02-29T00:00:00.000Z", true),
        ("2023-02-29T00:00:00.000Z", false),
        ("1900-02-29T00:00:00.000Z", false),
        ("2100-02-29T00:00:00.000Z", false),
        ("2023-02-28T00:00:00.000Z", true),
        ("2024-02-30T00:00:00.000Z", false),
    ])
    func leapYears(_ text: String, _ valid: Bool) {
        #expect((Timestamp(iso8601: text) != nil) == valid)
    }

    @Test func theLeapDayIsADay() throws {
        let before = try #require(Timestamp(iso8601: "2024-02-28T12:00:00.000Z"))
        #expect(before.adding(days: 1).iso8601 == "2024-02-29T12:00:00.000Z")
        #expect(before.adding(days: 2).iso8601 == "2024-03-01T12:00:00.000Z")
        let notLeap = try #require(Timestamp(iso8601: "2100-02-28T12:00:00.000Z"))
        #expect(notLeap.adding(days: 1).iso8601 == "2100-03-01T12:00:00.000Z")
    }

    @Test(arguments: [
        "",
        "2026-11-29T18:06:49Z",
        "2026-11-29T18:06:49.12Z",
        "2026-11-29T18:06:49.1234Z",
        "2026-11-29 18:06:49.123Z",
        "2026-11-29t18:06:49.123Z",
        "2026-11-29T18:06:49.123z",
        "2026-11-29T18:06:49.123+00:00",
        "2026-11-29T18:06:49.123",
        "2026/11/29T18:06:49.123Z",
        "2026-13-01T00:00:00.000Z",
        "2026-00-10T00:00:00.000Z",
        "2026-04-31T00:00:00.000Z",
        "2026-01-00T00:00:00.000Z",
        "2026-01-32T00:00:00.000Z",
        "2026-11-29T24:00:00.000Z",
        "2026-11-29T18:60:00.000Z",
        "2026-11-29T18:06:60.000Z",
        "2O26-11-29T18:06:49.123Z",
        "2026-1-29T18:06:49.123Z ",
        "2026-11-29T18:06:49.-23Z",
        " 2026-11-29T18:06:49.123Z",
        "2026-11-29T18:06:49.123Z ",
        "+2026-11-29T18:06:49.123Z",
        "2026-11-29T18:06:49,123Z",
    ])
    func rejectsOtherForms(_ text: String) {
        #expect(Timestamp(iso8601: text) == nil)
    }

    @Test func ordersAndMovesByDays() {
        let time = Timestamp(milliseconds: 1_000)
        #expect(time.adding(days: 1).milliseconds == 86_401_000)
        #expect(time.adding(days: -1).milliseconds == 1_000 - 86_400_000)
        #expect(time < time.adding(days: 1))
        #expect(Timestamp(iso8601: "2026-11-29T18:06:49.123Z")!.shortDisplay == "2026-11-29 18:06")
    }
}
