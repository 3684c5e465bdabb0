import AccountSummaries
import CreditLedger
import Foundation
import Signing
import Testing
import VoiceDebriefCredit

/// Issue 26, no device lost: a summary keeps each device's entries apart, with that device's head, and the totals take
/// for every account and device the section that covers the most, so any set of exports counts every entry once.
@Suite struct DeviceSectionTests {
    private let key = try! P256PrivateKey.generate()
    private let asOf = Timestamp(iso8601: "2026-11-29T12:00:00.000Z")!

    /// Device A's file, then device B's (joined after A's third entry): charges on days across the windows, a
    /// decline of B's own charge, and B's decline of a charge A wrote.
    private var history: (a: [LedgerEntry], b: [LedgerEntry]) {
        func entry(
            _ device: String, _ sequence: Int64, _ id: String, _ day: String, _ kind: EntryKind = .charge,
            _ feature: String = "debrief", pence: Int64 = 5, quantity: Int64 = 1, refersTo: String? = nil,
            reason: String? = nil
        ) -> LedgerEntry {
            LedgerEntry(
                id: id, device: device, sequence: sequence, time: Timestamp(iso8601: day + "T09:00:00.000Z")!,
                kind: kind, feature: kind == .opening ? nil : feature, quantity: quantity,
                amount: MicroCredits((kind == .charge ? -1 : 1) * pence * 10_000), balanceAfter: .zero,
                refersTo: refersTo, reason: reason)
        }
        let a = [
            entry("device-a", 1, "opening", "2026-10-01", .opening, pence: 500),
            entry("device-a", 2, "a-transcript", "2026-10-20", .charge, "transcript", pence: 6, quantity: 2),
            entry("device-a", 3, "a-debrief", "2026-11-20"),
            entry("device-a", 4, "a-clean", "2026-11-25", .charge, "cleanPassage", pence: 1),
            entry(
                "device-a", 5, "refund-a-clean", "2026-11-25", .refund, "cleanPassage", pence: 1,
                refersTo: "a-clean", reason: "not-usable"),
            entry("device-a", 6, "a-send", "2026-11-29", .charge, "send", pence: 1),
        ]
        let b = [
            entry("device-b", 1, "b-debrief", "2026-11-21"),
            entry("device-b", 2, "b-vault", "2026-11-22", .charge, "createVault", pence: 10),
            entry(
                "device-b", 3, "refund-b-vault", "2026-11-22", .refund, "createVault", pence: 10, refersTo: "b-vault",
                reason: "test"),
            entry(
                "device-b", 4, "refund-a-debrief", "2026-11-23", .refund, refersTo: "a-debrief",
                reason: "not-needed"),
            entry("device-b", 5, "b-transcript", "2026-11-28", .charge, "transcript", pence: 3),
        ]
        return (a, b)
    }

    private func report(_ entries: [LedgerEntry]) throws -> ProfitAndLossReport {
        try ProfitAndLossReport.make(
            entries: entries, asOf: asOf, prices: VoiceDebriefPrices(), costs: KnownLedger.Costs())
    }

    private func summary(_ entries: [LedgerEntry], at time: String = "2026-11-29T12:00:00.000Z") throws
        -> AccountSummary
    {
        try AccountSummary.make(
            entries: entries, exportedAt: Timestamp(iso8601: time)!, prices: VoiceDebriefPrices(),
            costs: KnownLedger.Costs(), headKey: key)
    }

    @Test func eachDeviceHasItsOwnSectionWithItsHead() throws {
        let (a, b) = history
        let made = try summary(Array(a.prefix(3)) + b)
        let sections = try #require(made.devices)
        let pseudonymA = SummaryDevice.pseudonym(of: "device-a", publicKey: key.publicKey)
        let pseudonymB = SummaryDevice.pseudonym(of: "device-b", publicKey: key.publicKey)
        #expect(Set(sections.map(\.device)) == [pseudonymA, pseudonymB])
        let sectionA = try #require(sections.first { $0.device == pseudonymA })
        let sectionB = try #require(sections.first { $0.device == pseudonymB })
        #expect(sectionA.head == 3 && sectionB.head == 5)
        #expect(sectionA.days.map(\.feature).sorted() == ["debrief", "transcript"])
        // B's decline of A's debrief is B's entry: in B's section, beside B's own.
        #expect(sectionB.declines.map(\.reason).sorted() == ["not-needed", "test"])
        let text = String(decoding: try made.encodedJSON(), as: UTF8.self)
        #expect(!text.contains("device-a") && !text.contains("device-b"), "a pseudonym, never the device id")
        #expect(made.format == "voicedebrief-account-summary-v3")
        try made.verify()
    }

    /// What six data directories held (A early and later, B unmerged at two moments, A after merging B early and
    /// late): every set of their exports totals to the P&L of the entries they cover together, to the micro-credit.
    @Test func everySetOfExportsCountsEachEntryOnce() throws {
        let (a, b) = history
        let views: [(a: Int, b: Int)] = [(3, 0), (3, 5), (6, 0), (6, 5), (3, 3), (6, 3)]
        let summaries = try views.enumerated().map { index, view in
            // Exported in an order unlike the heads', so that exportedAt cannot stand in for coverage.
            try summary(
                Array(a.prefix(view.a) + b.prefix(view.b)),
                at: "2026-11-29T\(String(format: "%02d", 11 - index)):00:00.000Z")
        }
        for subset in 1..<(1 << views.count) {
            let members = views.indices.filter { subset & (1 << $0) != 0 }
            let covered = (
                a: members.map { views[$0].a }.max() ?? 0, b: members.map { views[$0].b }.max() ?? 0
            )
            let expected = try report(Array(a.prefix(covered.a) + b.prefix(covered.b)))
            let total = try SummaryTotaliser.total(
                members.map { ("s\($0).json", summaries[$0]) }, asOf: asOf, tax: .app)
            #expect(total.report.periods == expected.periods, "exports \(members)")
            #expect(total.report.accounts == 1 && total.rejected.isEmpty)
            #expect(Set(total.counted + total.superseded) == Set(members.map { "s\($0).json" }))
        }
    }

    @Test func ofTwoSectionsWithOneHeadTheChoiceIsTheSameInAnyOrder() throws {
        let (a, _) = history
        let early = try summary(a, at: "2026-11-28T12:00:00.000Z")
        let late = try summary(a, at: "2026-11-29T12:00:00.000Z")
        for order in [[("x.json", early), ("y.json", late)], [("y.json", late), ("x.json", early)]] {
            let total = try SummaryTotaliser.total(order, asOf: asOf, tax: .app)
            #expect(total.counted == ["y.json"] && total.superseded == ["x.json"], "the later export, whatever order")
        }
    }
}

/// The older format, v1: the whole account in one, no devices.
extension DeviceSectionTests {
    /// A v1 summary as the previous release's `credit export --summary` wrote it (a debrief and a declined
    /// transcript on 2026-11-28).
    static let releasedV1 = #"""
        {"account": "cb00c22c5d8e06302d776c66e4f66636", "costsArePlaceholders": true, "days": [{"charged": 50000, "charges": 1, "cost": 2500, "day": "2026-11-28", "declined": 0, "feature": "debrief", "givenBack": 0}, {"charged": 60000, "charges": 1, "cost": 9600, "day": "2026-11-28", "declined": 1, "feature": "transcript", "givenBack": 60000}], "declines": [{"count": 1, "day": "2026-11-28", "feature": "transcript", "givenBack": 60000, "reason": "not-usable"}], "exportedAt": "2026-11-29T12:00:00.000Z", "format": "voicedebrief-account-summary-v1", "publicKey": "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEe01nrLwZ2vL8fasOnWc5n5uVxalltTX3ZJoPlCW1--3-ee73E4pJ6TrC7fltY3fqQYOaGb1Mgxm-acqBB6SMMw", "signature": "dB7TohknjwfEseEaolvNTvj_SURf3-ri87H1mH0-Z1eThjMlAWfXdjCtVUplYUSz0v11RTjo2VO-SbyZRACx-Q"}
        """#

    private func wholeAccount(_ entries: [LedgerEntry], at time: String) throws -> AccountSummary {
        let sections = try summary(entries, at: time).devices ?? []
        var old = AccountSummary.makeWholeAccount(
            account: AccountSummary.accountID(for: key.publicKey), exportedAt: time,
            publicKey: Base64URL.encode(key.publicKey.derRepresentation), costsArePlaceholders: true,
            days: sections.flatMap(\.days), declines: sections.flatMap(\.declines))
        try old.sign(with: key)
        return old
    }

    @Test func aReleasedV1SummaryStillVerifiesAndCounts() throws {
        let old = try AccountSummary.verified(from: Array(DeviceSectionTests.releasedV1.utf8))
        #expect(old.coversWholeAccount && old.devices == nil)
        let total = try SummaryTotaliser.total([("old.json", old)], tax: .app)
        let all = try #require(total.report.period("all"))
        #expect(total.counted == ["old.json"] && all.total.charged == 110_000 && all.total.givenBack == 60_000)
        var altered = old
        altered.days?[0].charged = 1
        #expect(throws: SummaryError.self) { try altered.verify() }
    }

    /// A v1 summary may hold any device's entries, so it never joins a device's section: it counts only for an
    /// account with no v2 summary, and another account's v1 summary counts beside.
    @Test func aV1SummaryCountsOnlyForAnAccountWithNoV2Summary() throws {
        let (a, b) = history
        let old = try wholeAccount(a + b, at: "2026-11-29T12:00:00.000Z")
        try old.verify()
        let alone = try SummaryTotaliser.total([("old.json", old)], asOf: asOf, tax: .app)
        // Its feature lines are the whole account's as it was; its money is not known (v1 has none), and said so.
        func features(_ report: ProfitAndLossReport) -> [PeriodProfitAndLoss] {
            report.periods.map {
                PeriodProfitAndLoss(
                    period: $0.period, days: $0.days, since: $0.since, features: $0.features, total: $0.total,
                    declinesByReason: $0.declinesByReason)
            }
        }
        #expect(features(alone.report) == features(try report(a + b)), "the whole account as it was")
        #expect(alone.report.periods.allSatisfy { $0.money?.accountsWithoutMoney == 1 })
        let newer = try summary(Array(a.prefix(3)), at: "2026-11-20T12:00:00.000Z")
        let other = try AccountSummary.verified(from: Array(DeviceSectionTests.releasedV1.utf8))
        let mixed = try SummaryTotaliser.total(
            [("old.json", old), ("new.json", newer), ("other.json", other)], tax: .app)
        #expect(mixed.superseded == ["old.json"] && mixed.counted == ["new.json", "other.json"])
        #expect(mixed.report.accounts == 2)
        let charged = try #require(mixed.report.period("all")).total.charged
        #expect(charged == 110_000 + 110_000, "A's two charges, and the other account's v1 figures")
    }
}

/// DuckDB over analytics/ chooses as the Swift totaliser does, v1 summaries included.
extension DeviceSectionTests {
    @Test func duckDBChoosesTheSameSectionsAsSwiftV1Included() async throws {
        let (a, b) = history
        let directory = try TemporaryDirectory()
        func write(_ summary: AccountSummary, _ name: String) throws {
            try Data(try summary.encodedJSON()).write(to: URL(fileURLWithPath: directory.file(name)))
        }
        func verified(_ name: String) throws -> AccountSummary {
            try SummaryTotaliser.verifiedSummary(at: directory.file(name))
        }
        // This account: a v1 of everything (superseded by its v2 sections) and four v2 exports.
        try write(try wholeAccount(a + b, at: "2026-11-29T11:30:00.000Z"), "k-v1.json")
        try write(try summary(Array(a.prefix(3)) + b, at: "2026-11-29T08:00:00.000Z"), "k-b-unmerged.json")
        try write(try summary(Array(a.prefix(3)), at: "2026-11-20T08:00:00.000Z"), "k-a-early.json")
        try write(try summary(a, at: "2026-11-29T07:00:00.000Z"), "k-a-unmerged.json")
        try write(try summary(a + b.prefix(3), at: "2026-11-29T09:00:00.000Z"), "k-a-merged-early.json")
        // Another account known only by the released v1 summary.
        try Data(DeviceSectionTests.releasedV1.utf8).write(to: URL(fileURLWithPath: directory.file("other-v1.json")))
        let swift = try SummaryTotaliser.total(directory: directory.path, tax: .app)
        // A's head is 6 in both A-unmerged and A-merged-early: the later export's section counts; B's from
        // B-unmerged (head 5, not 3).
        #expect(swift.superseded == ["k-a-early.json", "k-a-unmerged.json", "k-v1.json"].map(directory.file))
        #expect(swift.report.accounts == 2)
        let mine = try SummaryTotaliser.total(
            try ["k-a-merged-early.json", "k-b-unmerged.json"].map { (directory.file($0), try verified($0)) }, tax: .app
        )
        let other = try SummaryTotaliser.total([("o", try verified("other-v1.json"))], tax: .app)
        let charged = try #require(swift.report.period("all")).total.charged
        #expect(
            charged == (try #require(mine.report.period("all")).total.charged)
                + (try #require(other.report.period("all")).total.charged))
        #expect(mine.report.period("all") == (try report(a + b)).period("all"), "the unmerged pair: both devices")

        var environment = ProcessInfo.processInfo.environment
        environment["CREDIT_SUMMARY_VERIFY"] = try Binaries.require("credit-summary-verify")
        // pnl.sh's working files in a folder of the test's (AccountSummaryTests runs it as a user does, making and
        // removing its own).
        let scratch = try TemporaryDirectory()
        defer { withExtendedLifetime(scratch) {} }
        environment["PNL_SCRATCH"] = scratch.path
        let duck = try await ChildProcess.run(
            "/bin/bash", [Repository.root + "/analytics/pnl.sh", directory.path, "--json"], environment: environment,
            timeout: 300)
        #expect(duck.succeeded, "\(duck)")
        let duckJSON = try JSONSerialization.jsonObject(with: Data(duck.stdout.utf8)) as? NSDictionary
        let swiftJSON = try JSONSerialization.jsonObject(with: JSONEncoder().encode(swift.report)) as? NSDictionary
        #expect(duckJSON != nil && duckJSON == swiftJSON, "DuckDB:\n\(duck.stdout.prefix(3000))")
    }
}
