import CreditLedger
import Foundation
import Signing
import Testing
import VoiceDebriefCredit

@testable import AccountSummaries

/// The fast path of a summary (SummaryFastReader, SummaryCanonicalWriter) is the strict path's equal: the same
/// summary as `JSONDecoder`'s from the same bytes, the same signed bytes as `JSONEncoder`'s, and for anything it does
/// not read, the strict path's own answer.
@Suite struct SummaryFastPathTests {
    /// Summaries of every shape: generated v3 ones (money in two currencies, refunds), a known ledger's and a money
    /// ledger's as exported, a v2 one (no money) and a v1 one (the whole account, no devices).
    private func summaries() throws -> [AccountSummary] {
        var random = SeededRandom(seed: 2626)
        let features = ["transcript", "debrief", "cleanPassage", "createVault", "saveToVault", "pushVault", "send"]
        let reasons = ["not-usable", "not-needed", "test", "other"]
        var made: [AccountSummary] = []
        for _ in 0..<200 {
            made.append(
                try GeneratedSummary.make(
                    key: try P256PrivateKey.generate(), features: features, reasons: reasons, random: &random))
        }
        let key = try P256PrivateKey.generate()
        made.append(
            try AccountSummary.make(
                entries: KnownLedger.entries, exportedAt: KnownLedger.asOf, prices: VoiceDebriefPrices(),
                costs: KnownLedger.Costs(), headKey: key))
        var money = try AccountSummary.make(
            entries: MoneyLedger.entries, exportedAt: MoneyLedger.asOf, prices: VoiceDebriefPrices(),
            costs: VoiceDebriefCosts(), money: VoiceDebriefMoney(), headKey: key)
        made.append(money)
        money.format = AccountSummary.deviceSectionsFormatName
        money.commission = nil
        money.moneyArePlaceholders = nil
        money.devices = money.devices?.map {
            SummaryDevice(device: $0.device, head: $0.head, days: $0.days, declines: $0.declines)
        }
        try money.sign(with: key)
        made.append(money)
        let section = try #require(made[0].devices?.first)
        var whole = AccountSummary.makeWholeAccount(
            account: made[0].account, exportedAt: made[0].exportedAt, publicKey: made[0].publicKey,
            costsArePlaceholders: false, days: section.days, declines: section.declines)
        whole.signature = "c2lnbmF0dXJl"
        made.append(whole)
        return made
    }

    private func strictEncoding(_ summary: AccountSummary) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(summary))
    }

    @Test func theWriterWritesTheEncodersBytes() throws {
        for summary in try summaries() {
            let fast = try #require(SummaryCanonicalWriter.json(of: summary), "\(summary.format)")
            let strict = try strictEncoding(summary)
            #expect(
                fast == strict, "\(String(decoding: fast, as: UTF8.self))\n\(String(decoding: strict, as: UTF8.self))")
        }
    }

    @Test func theReaderReadsTheDecodersSummaryFromTheFileAndFromTheSignedForm() throws {
        for summary in try summaries() {
            for bytes in [try summary.encodedJSON(), try strictEncoding(summary)] {
                let fast = try #require(SummaryFastReader.summary(from: bytes), "\(summary.format)")
                let strict = try JSONDecoder().decode(AccountSummary.self, from: Data(bytes))
                #expect(fast == strict && fast == summary)
            }
        }
    }

    @Test func aSignedSummaryVerifiesTheSameOnBothPaths() throws {
        for summary in try summaries().prefix(20) {
            let bytes = try summary.encodedJSON()
            #expect(try AccountSummary.verified(from: bytes) == AccountSummary.strictlyVerified(from: bytes))
        }
    }

    /// Bytes the fast reader leaves to the strict path, each with what the strict path says of it.
    static let declined: [(String, String)] = [
        (#""format" : "voicedebrief-account-summary-v3""#, #""format" : "voicedebrief-account-summary-v\u0033""#),
        (#""costsArePlaceholders" : true"#, #""costsArePlaceholders" : true, "extra" : 1"#),  // an unknown member
        (#""costsArePlaceholders" : true"#, #""costsArePlaceholders" : true, "costsArePlaceholders" : false"#),
        (#""moneyArePlaceholders" : true"#, #""moneyArePlaceholders" : null"#),
        (#""head" : 100"#, #""head" : 100.0"#),
        (#""head" : 100"#, #""head" : 1e2"#),
        (#""head" : 100"#, #""head" : 0100"#),
        (#""head" : 100"#, #""head" : 99999999999999999999"#),
        (#""name" : "small-business""#, #""name" : "small-büsiness""#),
    ]

    @Test(arguments: declined)
    func whatTheFastReaderDoesNotReadTheStrictPathDecides(_ change: (String, String)) throws {
        var random = SeededRandom(seed: 7)
        let summary = try GeneratedSummary.make(
            key: try P256PrivateKey.generate(), features: ["send"], reasons: ["test"], random: &random)
        let text = String(decoding: try summary.encodedJSON(), as: UTF8.self)
        #expect(text.contains(change.0), "the fixture has \(change.0)")
        let changed = Array(text.replacingOccurrences(of: change.0, with: change.1).utf8)
        #expect(SummaryFastReader.summary(from: changed) == nil, "\(change.1)")
        let fast = Result { try AccountSummary.verified(from: changed) }
        let strict = Result { try AccountSummary.strictlyVerified(from: changed) }
        switch (fast, strict) {
        case (.success(let a), .success(let b)): #expect(a == b)
        case (.failure(let a), .failure(let b)): #expect("\(a)" == "\(b)")
        default: Issue.record("the paths differ on \(change.1): \(fast) and \(strict)")
        }
    }

    @Test func aStringThatIsNotPlainASCIIIsLeftToTheEncoder() throws {
        var summary = try #require(try summaries().first)
        summary.devices![0].days[0].feature = "tra\"nscript"
        #expect(SummaryCanonicalWriter.json(of: summary) == nil)
        summary.devices![0].days[0].feature = "trånscript"
        #expect(SummaryCanonicalWriter.json(of: summary) == nil)
        // The signed bytes are still the encoder's.
        #expect(try summary.signedBytes == Array((summary.format + "\n").utf8) + strictEncoding(unsigned(summary)))
    }

    @Test func aDayOfThisCenturyIsCheckedAsTheTimestampRoundTripChecksIt() throws {
        var day = Timestamp(iso8601: "2000-01-01T00:00:00.000Z")!
        while day.iso8601 < "2100" {
            let text = String(day.iso8601.prefix(10))
            #expect(AccountSummary.isDayThisCentury(text) == true, "\(text)")
            day = day.adding(days: 1)
        }
        for text in ["2026-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "2026-11-00", "2100-02-29", "2099-02-29"] {
            let roundTrip = Timestamp(iso8601: text + "T00:00:00.000Z")?.iso8601 == text + "T00:00:00.000Z"
            #expect(AccountSummary.isDayThisCentury(text) ?? roundTrip == roundTrip, "\(text)")
        }
        for text in ["1999-12-31", "2026-1-01", "2026/11/29", "２０26-11-29", "2026-11-29T00:00:00.000Z"] {
            #expect(AccountSummary.isDayThisCentury(text) == nil, "\(text) is left to the round trip")
        }
    }

    private func unsigned(_ summary: AccountSummary) -> AccountSummary {
        var copy = summary
        copy.signature = ""
        return copy
    }
}
