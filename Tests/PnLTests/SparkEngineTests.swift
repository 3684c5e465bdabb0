import AccountSummaries
import Foundation
import Signing
import Testing

/// Issue 26, past one machine: the same 1,000 generated summaries (money included, an older export and an altered
/// one among them) totalled by `credit pnl --summaries DIR --json`, by `analytics/pnl.sh DIR --json` on DuckDB and by
/// `analytics/pnl.sh DIR --json --engine spark` on Apache Spark in local mode: the same JSON, field by field, to the
/// micro-credit and micro-unit.
///
/// Spark is not optional here: `pnl.sh` installs Java 17 and pyspark when they are missing, and when it cannot the
/// test fails with pnl.sh's reason.
@Suite struct SparkEngineTests {
    /// 1,000 accounts' summaries, and the older export of account 0 and the altered copy of account 1 beside them.
    private func directory() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        var random = SeededRandom(seed: 26)
        let features = ["transcript", "debrief", "cleanPassage", "createVault", "saveToVault", "pushVault", "send"]
        let reasons = ["not-usable", "not-needed", "test", "other"]
        var keys: [P256PrivateKey] = []
        for index in 0..<1_000 {
            let key = try P256PrivateKey.generate()
            keys.append(key)
            let made = try GeneratedSummary.make(key: key, features: features, reasons: reasons, random: &random)
            try Data(try made.encodedJSON()).write(
                to: URL(fileURLWithPath: directory.file(String(format: "account-%04d.json", index))))
        }
        let older = try GeneratedSummary.make(
            key: keys[0], features: features, reasons: reasons, random: &random, exportedDaysAgo: 3, head: 50)
        try Data(try older.encodedJSON()).write(to: URL(fileURLWithPath: directory.file("older-0.json")))
        let second = try Data(contentsOf: URL(fileURLWithPath: directory.file("account-0001.json")))
        var altered = try JSONDecoder().decode(AccountSummary.self, from: second)
        altered.devices![0].days[0].charged += 10_000
        try Data(try altered.encodedJSON()).write(to: URL(fileURLWithPath: directory.file("altered-1.json")))
        return directory
    }

    private func run(_ executable: String, _ arguments: [String]) async throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["CREDIT_SUMMARY_VERIFY"] = try Binaries.require("credit-summary-verify")
        environment["NO_COLOR"] = "1"
        return try await ChildProcess.run(executable, arguments, environment: environment, timeout: 900)
    }

    @Test(.enabled(if: SlowStage.isOn, SlowStage.reason), .timeLimit(.minutes(15)))
    func oneThousandAccountsBySwiftDuckDBAndSparkAreTheSameFieldByField() async throws {
        let directory = try directory()
        let data = try TemporaryDirectory()
        let script = Repository.root + "/analytics/pnl.sh"
        let clock = ContinuousClock()
        let started = clock.now
        let swift = try await run(
            try Binaries.require("credit"),
            ["--data-dir", data.file("d"), "pnl", "--summaries", directory.path, "--json"])
        let swiftDone = clock.now
        let duck = try await run("/bin/bash", [script, directory.path, "--json"])
        let duckDone = clock.now
        let spark = try await run("/bin/bash", [script, directory.path, "--json", "--engine", "spark"])
        print(
            "1,000 accounts: credit pnl \(swiftDone - started), DuckDB \(duckDone - swiftDone),"
                + " Spark \(clock.now - duckDone) (each with its verification)")
        #expect(swift.succeeded, "\(swift)")
        #expect(duck.succeeded, "\(duck)")
        try #require(spark.succeeded, "Spark did not total the summaries (pyspark or Java missing?): \(spark.stderr)")
        for result in [duck, spark] {
            #expect(result.stderr.contains("altered-1.json"), "the verifier names the altered summary: \(result)")
        }

        let expected = try JSONValue.parse(swift.stdout)
        for (engine, result) in [("DuckDB", duck), ("Spark", spark)] {
            let differences = JSONDifference.between(expected, try JSONValue.parse(result.stdout))
            #expect(differences.isEmpty, "\(engine) differs from credit pnl: \(differences.prefix(20))")
        }
        // What makes the comparison worth it: every account, money in two currencies, refunds, features.
        #expect(expected["accounts"] == .integer(1_000))
        let money = try #require(expected["periods"]?[0]?["money"])
        #expect(money["accountsCounted"] == .integer(1_000))
        #expect(money["currencies"]?[0]?["currency"] == .string("GBP"))
        #expect(money["currencies"]?[1]?["currency"] == .string("USD"))
        guard case .integer(let refunds) = money["currencies"]?[0]?["refunds"],
            case .integer(let kept) =
                money["currencies"]?[0]?["kept"]
        else { Issue.record("no GBP refunds or kept in \(money)"); return }
        #expect(refunds > 0 && kept > 0)
        guard case .array(let features) = expected["periods"]?[0]?["features"] else {
            Issue.record("no features"); return
        }
        #expect(features.count == 7)
    }

    @Test func theDifferenceOfTwoJSONValuesNamesEachFieldThatDiffers() throws {
        let a = try JSONValue.parse(#"{"a": 1, "b": {"c": [1, 2]}, "d": null, "e": true, "g": [1]}"#)
        let b = try JSONValue.parse(#"{"a": 1, "b": {"c": [1, 3]}, "d": 0, "f": "x", "g": [1, 2]}"#)
        #expect(
            JSONDifference.between(a, b) == [
                "$.b.c[1]: 2 is 3", "$.d: null is 0", "$.e: missing", "$.f: missing", "$.g: 1 items is 2",
            ])
        #expect(JSONDifference.between(a, a).isEmpty)
        // A Bool is not the number 1, nor an integer a fraction.
        #expect(
            try JSONDifference.between(JSONValue.parse(#"{"x": true}"#), JSONValue.parse(#"{"x": 1}"#)) == [
                "$.x: true is 1"
            ])
        #expect(try JSONDifference.between(JSONValue.parse("[2]"), JSONValue.parse("[2.5]")) == ["$[0]: 2 is 2.5"])
    }
}

/// A JSON value as decoded, a Bool told from a number and an integer from a fraction (Foundation's
/// `JSONSerialization` bridges `true` and `1` to the same `NSNumber`).
enum JSONValue: Decodable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int64)
    case fraction(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .fraction(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The JSON value of `text`.
    static func parse(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    subscript(index: Int) -> JSONValue? {
        if case .array(let items) = self, items.indices.contains(index) { return items[index] }
        return nil
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .integer(let value): "\(value)"
        case .fraction(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .array(let items): "[\(items.count) items]"
        case .object(let members): "{\(members.count) members}"
        }
    }
}

/// Every field where two JSON values differ, by its path (`$.periods[0].money.currencies[1].kept: 12 is 13`).
enum JSONDifference {
    static func between(_ expected: JSONValue, _ actual: JSONValue, at path: String = "$") -> [String] {
        switch (expected, actual) {
        case (.object(let a), .object(let b)):
            return Set(a.keys).union(b.keys).sorted().flatMap { key -> [String] in
                guard let left = a[key], let right = b[key] else { return ["\(path).\(key): missing"] }
                return between(left, right, at: "\(path).\(key)")
            }
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return ["\(path): \(a.count) items is \(b.count)"] }
            return zip(a, b).enumerated().flatMap { between($1.0, $1.1, at: "\(path)[\($0)]") }
        default:
            return expected == actual ? [] : ["\(path): \(expected) is \(actual)"]
        }
    }
}
