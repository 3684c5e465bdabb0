import AccountSummaries
import CreditLedger
import Foundation
import Signing
import Testing

/// Issue 26: a summary is strict input. Figures out of range, a key given twice, a feature that is not a key: each
/// refused by name; totals that would overflow leave the summaries out, named, and never trap.
@Suite struct StrictSummaryTests {
    private func signed(_ days: [SummaryDay], declines: [SummaryDecline] = []) throws -> AccountSummary {
        let key = try P256PrivateKey.generate()
        var summary = AccountSummary(
            account: AccountSummary.accountID(for: key.publicKey), exportedAt: "2026-11-29T12:00:00.000Z",
            publicKey: Base64URL.encode(key.publicKey.derRepresentation), costsArePlaceholders: true,
            devices: [
                SummaryDevice(
                    device: SummaryDevice.pseudonym(of: "d", publicKey: key.publicKey), head: 1, days: days,
                    declines: declines, credit: [], money: [])
            ])
        summary.commission = CommissionRate(name: "small-business", basisPoints: 1500)
        summary.moneyArePlaceholders = true
        try summary.sign(with: key)
        return summary
    }

    private func day(_ feature: String = "send", charges: Int64 = 1, charged: Int64 = 10_000) -> SummaryDay {
        SummaryDay(
            day: "2026-11-28", feature: feature, charges: charges, charged: charged, declined: 0, givenBack: 0,
            cost: 0)
    }

    private func reason(_ bytes: [UInt8]) -> String? {
        do {
            _ = try AccountSummary.verified(from: bytes)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aFigureOutOfRangeIsRefused() throws {
        let summary = try signed([day(charges: Int64.max, charged: Int64.max)])
        let why = try #require(reason(try summary.encodedJSON()))
        #expect(why.contains("figures from 0 to"), "\(why)")
    }

    @Test(arguments: ["", "a b", "bad\u{1B}[2J", String(repeating: "k", count: 65), "caf\u{E9}"])
    func aFeatureThatIsNotAKeyIsRefused(_ feature: String) throws {
        let summary = try signed([day(feature)])
        let why = try #require(reason(try summary.encodedJSON()))
        #expect(why.contains("is not a key"), "\(why)")
    }

    @Test func aKeyGivenTwiceIsRefused() throws {
        let summary = try signed([day()])
        var text = String(decoding: try summary.encodedJSON(), as: UTF8.self)
        // The same member twice at the top: Swift's decoder would take the first and say nothing.
        text = "{\"account\":\"x\"," + text.drop { $0 != "{" }.dropFirst()
        #expect(text.hasPrefix("{\"account\":\"x\","))
        let why = try #require(reason(Array(text.utf8)))
        #expect(why.contains("has the key account twice"), "\(why)")
        #expect(SummaryLimits.duplicateKey(in: Array(#"{"a":{"b":1,"b":2}}"#.utf8)) == "b")
        #expect(SummaryLimits.duplicateKey(in: Array(#"[{"a":1},{"a":2}]"#.utf8)) == nil, "two objects, one each")
        #expect(SummaryLimits.duplicateKey(in: Array(#"{"a":"{\"a\":1,","b":[1,"a"]}"#.utf8)) == nil)
    }

    @Test func totalsThatWouldOverflowLeaveTheSummariesOutNamedAndNeverTrap() throws {
        let big = SummaryLimits.maximumFigure
        var verified: [(file: String, summary: AccountSummary)] = []
        // Each summary is as large as allowed: 9,300 of them would pass Int64.max in one feature's charged sum.
        let one = try signed([day(charges: big, charged: big)])
        for index in 0..<9_300 {
            var copy = one
            copy.account = "account-\(index)"
            verified.append(("s\(index).json", copy))
        }
        let total = try SummaryTotaliser.total(
            verified, asOf: Timestamp(iso8601: "2026-11-29T12:00:00.000Z"), tax: .app)
        #expect(!total.rejected.isEmpty, "some are left out")
        #expect(total.rejected.allSatisfy { $0.reason.contains("too large to count") })
        #expect(total.counted.count + total.rejected.count == 9_300)
        #expect(total.report.accounts == total.counted.count)
        let charged = try #require(total.report.periods.first?.total.charged)
        #expect(charged == Int64(total.counted.count) * big, "every counted one exactly")
    }

    @Test func aMarginFarBeyondItsNetLeavesTheSummaryOutNotThePnL() throws {
        let odd = try signed([
            SummaryDay(
                day: "2026-11-28", feature: "send", charges: 1, charged: 1, declined: 0, givenBack: 0,
                cost: SummaryLimits.maximumFigure)
        ])
        let fine = try signed([day("debrief", charges: 2, charged: 100_000)])
        let total = try SummaryTotaliser.total(
            [("odd.json", odd), ("fine.json", fine)], asOf: Timestamp(iso8601: "2026-11-29T12:00:00.000Z"), tax: .app)
        #expect(total.rejected.map(\.file) == ["odd.json"], "\(total.rejected)")
        #expect(total.counted == ["fine.json"])
        #expect(total.report.periods.first?.total.charged == 100_000)
    }
}

/// The per-device sections of a v2 summary are as strict as its rows: each refused by name, by `credit` and by
/// `credit-summary-verify` (and so `analytics/pnl.sh`), which run this code.
extension StrictSummaryTests {
    /// A summary with one good section, changed by `change`, then signed (so only the change can be at fault).
    private func changed(_ change: (inout AccountSummary) -> Void) throws -> [UInt8] {
        let key = try P256PrivateKey.generate()
        var summary = AccountSummary(
            account: AccountSummary.accountID(for: key.publicKey), exportedAt: "2026-11-29T12:00:00.000Z",
            publicKey: Base64URL.encode(key.publicKey.derRepresentation), costsArePlaceholders: true,
            devices: [
                SummaryDevice(
                    device: SummaryDevice.pseudonym(of: "d", publicKey: key.publicKey), head: 3, days: [day()],
                    declines: [], credit: [], money: [])
            ])
        summary.commission = CommissionRate(name: "small-business", basisPoints: 1500)
        summary.moneyArePlaceholders = true
        change(&summary)
        try summary.sign(with: key)
        return try summary.encodedJSON()
    }

    @Test func aDeviceSectionThatIsNotRightIsRefusedByName() throws {
        let good = try changed { _ in }
        #expect(reason(good) == nil, "the unchanged one verifies: \(reason(good) ?? "")")
        let cases: [(String, (inout AccountSummary) -> Void)] = [
            ("is not a pseudonym", { $0.devices![0].device = "device-1" }),
            ("is not a pseudonym", { $0.devices![0].device = String(repeating: "A", count: 32) }),
            ("has two sections", { $0.devices!.append($0.devices![0]) }),
            ("head is not a sequence", { $0.devices![0].head = 0 }),
            ("head is not a sequence", { $0.devices![0].head = SummaryLimits.maximumFigure + 1 }),
            ("no days outside them", { $0.days = [] }),
            ("at least one", { $0.devices = [] }),
            ("no devices", { $0.format = AccountSummary.wholeAccountFormatName }),
            ("unknown format", { $0.format = "voicedebrief-account-summary-v4" }),
            ("no credit or money rows", { $0.devices![0].money = nil }),
            ("they came with", { $0.format = AccountSummary.deviceSectionsFormatName }),
            (
                "credit row is malformed",
                { $0.devices![0].credit = [SummaryCredit(day: "2026-11-28", kind: "bought", count: 1, amount: 1)] }
            ),
            ("figures from 0 to", { $0.devices![0].days[0].cost = -1 }),
            ("is not a key", { $0.devices![0].days[0].feature = "bad\u{1B}[2J" }),
            (
                "is not a key",
                {
                    $0.devices![0].declines = [
                        SummaryDecline(day: "2026-11-28", feature: "send", reason: "a b", count: 1, givenBack: 1)
                    ]
                }
            ),
        ]
        for (words, change) in cases {
            let why = try #require(reason(try changed(change)), "refused: \(words)")
            #expect(why.contains(words), "\(why)")
        }
    }

    @Test func aKeyGivenTwiceInADeviceSectionIsRefused() throws {
        let text = String(decoding: try changed { _ in }, as: UTF8.self)
        #expect(text.contains("\"head\" : 3"))
        let twice = text.replacingOccurrences(of: "\"head\" : 3", with: "\"head\" : 3, \"head\" : 9")
        let why = try #require(reason(Array(twice.utf8)))
        #expect(why.contains("has the key head twice"), "\(why)")
    }
}
