import AccountSummaries
import CreditLedger
import Foundation
import Signing
import Testing
import VoiceDebriefCredit

/// Issue 35: one reading of JSON for `credit pnl --summaries`, `credit-summary-verify` and `analytics/pnl.sh`. A
/// genuine export with a UTF-8 byte-order mark, the same export in UTF-16, and a money row that says `gross` twice
/// (once spelt `gro\u0073s`) passed the first two and stopped DuckDB for every account; now each is left out by name,
/// in the same plain words by all three, and the other accounts are counted.
@Suite struct SummaryEncodingTests {
    /// A genuine export of `MoneyLedger`'s entries under a key of its own, as `credit export --summary` writes it.
    private func export() throws -> [UInt8] {
        try AccountSummary.make(
            entries: MoneyLedger.entries, exportedAt: MoneyLedger.asOf, prices: VoiceDebriefPrices(),
            costs: VoiceDebriefCosts(), money: VoiceDebriefMoney(), headKey: try P256PrivateKey.generate()
        ).encodedJSON()
    }

    /// The export with its first money row's gross given again under an escaped spelling, after the real one (Swift's
    /// decoder takes the first, so the signature still verifies).
    private func twiceGross() throws -> [UInt8] {
        let text = String(decoding: try export(), as: UTF8.self)
        let real = try #require(text.firstMatch(of: try Regex(#""gross" : [0-9]+"#)))
        let forged = text.replacingCharacters(in: real.range, with: text[real.range] + #", "gro\u0073s" : 1"#)
        #expect(forged.contains(#""gro\u0073s" : 1"#), "the forgery is in place")
        return Array(forged.utf8)
    }

    /// The directory: one good account, and the three that are not UTF-8 JSON said once.
    private func directory() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        func write(_ bytes: [UInt8], _ name: String) throws {
            try Data(bytes).write(to: URL(fileURLWithPath: directory.file(name)))
        }
        try write(try export(), "good.json")
        try write([0xEF, 0xBB, 0xBF] + (try export()), "bom.json")
        let utf16 = try #require(String(decoding: try export(), as: UTF8.self).data(using: .utf16LittleEndian))
        try write(Array(utf16), "utf16.json")
        try write(try twiceGross(), "twice.json")
        return directory
    }

    static let reasons = [
        "bom.json: starts with a byte-order mark", "utf16.json: is not UTF-8", "twice.json: has the key gross twice",
    ]

    private func run(_ executable: String, _ arguments: [String]) async throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["CREDIT_SUMMARY_VERIFY"] = try Binaries.require("credit-summary-verify")
        environment["NO_COLOR"] = "1"
        return try await ChildProcess.run(executable, arguments, environment: environment, timeout: 300)
    }

    @Test func eachIsLeftOutByNameByAllThreeAndTheOthersCounted() async throws {
        let directory = try directory()
        let data = try TemporaryDirectory()
        let swift = try await run(
            try Binaries.require("credit"),
            ["--data-dir", data.file("d"), "pnl", "--summaries", directory.path, "--json"])
        let verifier = try await run(try Binaries.require("credit-summary-verify"), [directory.path])
        let duck = try await run("/bin/bash", [Repository.root + "/analytics/pnl.sh", directory.path, "--json"])
        #expect(swift.status == 0 && verifier.status == 0 && duck.status == 0, "\(swift)\n\(verifier)\n\(duck)")
        for reason in Self.reasons {
            for result in [swift, verifier, duck] {
                #expect(result.stderr.contains("left out: " + directory.path + "/" + reason), "\(reason): \(result)")
            }
        }
        #expect(verifier.stdout == directory.path + "/good.json\n", "\(verifier)")
        let swiftJSON = try JSONSerialization.jsonObject(with: Data(swift.stdout.utf8)) as? NSDictionary
        let duckJSON = try JSONSerialization.jsonObject(with: Data(duck.stdout.utf8)) as? NSDictionary
        #expect(swiftJSON?["accounts"] as? Int == 1, "the good account counted")
        #expect(
            swiftJSON != nil && swiftJSON == duckJSON, "\(swift.stdout.prefix(1000))\n---\n\(duck.stdout.prefix(1000))")
    }

    @Test func theSameBytesAreRefusedInTheSameWordsInProcess() throws {
        let good = try export()
        let cases: [([UInt8], String)] = [
            ([0xEF, 0xBB, 0xBF] + good, "starts with a byte-order mark"),
            (
                [0xFF, 0xFE]
                    + Array(try #require(String(decoding: good, as: UTF8.self).data(using: .utf16LittleEndian))),
                "is not UTF-8"
            ),
            (Array(try #require(String(decoding: good, as: UTF8.self).data(using: .utf16BigEndian))), "is not UTF-8"),
            (Array(good.dropLast()) + [0xC3, 0x0A], "is not UTF-8"),
            (try twiceGross(), "has the key gross twice"),
        ]
        #expect(throws: Never.self) { try AccountSummary.verified(from: good) }
        for (bytes, words) in cases {
            do {
                _ = try AccountSummary.verified(from: bytes)
                Issue.record("verified, though it \(words)")
            } catch {
                #expect("\(error)".hasPrefix(words), "\(error)")
            }
        }
    }

    @Test func namesAreComparedWithTheirEscapesUndone() {
        #expect(SummaryLimits.duplicateKey(in: Array(#"{"gross":1,"gro\u0073s":2}"#.utf8)) == "gross")
        #expect(SummaryLimits.duplicateKey(in: Array(#"{"a\"b":1,"a\u0022b":2}"#.utf8)) == "a\"b")
        #expect(SummaryLimits.duplicateKey(in: Array(#"{"\ud83d\ude00":1,"😀":2}"#.utf8)) == "😀")
        #expect(SummaryLimits.duplicateKey(in: Array(#"{"a\/b":1,"a/b":2}"#.utf8)) == "a/b")
        #expect(SummaryLimits.duplicateKey(in: Array(#"{"gross":1,"gro\u0073t":2}"#.utf8)) == nil)
        #expect(SummaryLimits.duplicateKey(in: Array(#"{"a\n":1,"a":2}"#.utf8)) == nil)
    }
}
