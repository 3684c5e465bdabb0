import Testing

@testable import LedgerEntries

/// Issue 38: what a reader keeps from line to line (the day of the time before, the `mac` before) changes no
/// entry: a line read after others is read as if alone.
@Suite struct LineReadContextTests {
    private func time(_ text: String, _ context: inout LineReadContext) -> Timestamp? {
        Array(text.utf8).withUnsafeBufferPointer { context.timestamp($0.baseAddress!) }
    }

    @Test func aTimeAfterAnotherIsReadAsIfAlone() {
        var context = LineReadContext()
        let times = [
            "2026-11-29T18:06:49.123Z", "2026-11-29T23:59:59.999Z", "2026-11-30T00:00:00.000Z",
            "2024-02-29T12:00:00.000Z", "1969-12-31T23:59:59.999Z", "2026-11-30T00:00:00.001Z",
        ]
        for text in times {
            #expect(time(text, &context) == Timestamp(iso8601: text), "\(text)")
        }
    }

    @Test func aBadTimeIsRefusedWhateverCameBefore() {
        var context = LineReadContext()
        #expect(time("2026-11-29T18:06:49.123Z", &context) != nil)
        // The same date as the time before, a bad clock; then a bad date after a good one.
        for bad in [
            "2026-11-29T24:00:00.000Z", "2026-11-29T18:60:00.000Z", "2026-11-29X18:06:49.123Z",
            "2026-11-29T18:06:49.123z", "2026-11-31T18:06:49.123Z", "2025-02-29T00:00:00.000Z",
        ] {
            #expect(time(bad, &context) == nil, "\(bad)")
            #expect(Timestamp(iso8601: bad) == nil, "\(bad)")
        }
    }

    @Test func aPrevIsTheMACBeforeOnlyWhenItsDigitsAreTheSame() {
        var context = LineReadContext()
        let mac = String(repeating: "ab", count: 32)
        let other = String(repeating: "ab", count: 31) + "ac"
        func digest(_ text: String, mac isMAC: Bool) -> ChainDigest? {
            Array(text.utf8).withUnsafeBytes { isMAC ? context.macDigest($0) : context.previousDigest($0) }
        }
        #expect(digest(mac, mac: false) == ChainDigest(hex: mac))
        #expect(digest(mac, mac: true) == ChainDigest(hex: mac))
        #expect(digest(mac, mac: false) == ChainDigest(hex: mac))
        #expect(digest(other, mac: false) == ChainDigest(hex: other))
        #expect(digest(mac.uppercased(), mac: false) == nil)
        #expect(digest("not hex", mac: false) == nil)
    }
}
