import Foundation
import TestSupport
import Testing

/// Issue 26: `analytics/pnl.sh` is a command in its own right: its own usage for a wrong option (exit 64), `--as-of`
/// as ISO 8601 with or without a fraction and with `Z` or an offset (anything else refused in words, exit 64), the
/// table unless `--json`, and a directory with nothing to count said so.
@Suite struct PnLScriptTests {
    /// A directory with one account's summary: a transcript on the 20th, a debrief on the 28th, a declined clean
    /// passage on the 29th.
    private func summaries() async throws -> (data: DataDirectory, directory: String) {
        let data = try DataDirectory()
        try await data.ok(
            "charge", "transcript", "--seconds", "76", "--subject", "note-1", now: "2026-11-20T09:00:00.000Z")
        try await data.ok("charge", "debrief", "--subject", "note-1", now: "2026-11-28T09:00:00.000Z")
        let made = try await data.ok("charge", "cleanPassage", "--json", now: "2026-11-29T10:00:00.000Z").jsonObject()
        let id = try #require(made["id"] as? String)
        try await data.ok("decline", id, "--reason", "not-usable", now: "2026-11-29T10:01:00.000Z")
        let directory = data.temporary.file("summaries")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try await data.ok("export", "--summary", directory + "/mine.json", now: "2026-11-29T11:00:00.000Z")
        return (data, directory)
    }

    static let wrongCommandLines: [[String]] = [
        [], ["--bogus"], ["DIR", "--bogus"], ["DIR", "--files", "x"], ["DIR", "--days", "8"], ["DIR", "--as-of"],
        ["DIR", "DIR"], ["-j", "DIR"], ["DIR", "--engine", "sparky"], ["DIR", "--engine"],
        ["DIR", "--engine=postgres"],
    ]

    @Test(arguments: wrongCommandLines)
    func aWrongCommandLineIsExit64WithItsOwnUsage(_ arguments: [String]) async throws {
        let directory = try TemporaryDirectory()
        let result = try await PnLScript.run(arguments.map { $0 == "DIR" ? directory.path : $0 })
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("usage: bash analytics/pnl.sh DIR [--json]"), "\(result)")
        #expect(
            !result.stderr.contains("pnl.py") && !result.stderr.contains("--left-out"), "not pnl.py's: \(result)")
        #expect(result.stdout.isEmpty)
    }

    /// pnl.sh starts no process to ask whether DuckDB is installed: pnl.py, which pnl.sh becomes (`exec`), looks, and
    /// runs the install script it is given when DuckDB is missing (without one: exit 3).
    @Test func theDriverInstallsAMissingDuckDBWithTheScriptItIsGiven() async throws {
        let fake = try TemporaryDirectory()
        try Data("raise ImportError('not installed')\n".utf8).write(to: URL(fileURLWithPath: fake.file("duckdb.py")))
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONPATH"] = fake.path
        let driver = [Repository.root + "/analytics/pnl.py", "--joined", fake.file("none.ndjson")]
        let alone = try await ChildProcess.run(
            "/usr/bin/env", ["python3"] + driver, environment: environment, timeout: 60)
        #expect(alone.status == 3, "\(alone)")
        // An install that fails: said by the script, and the driver stops with 1 having run it with `duckdb`.
        let script = fake.file("install.sh")
        try Data("echo \"$1\" > \"\(fake.file("asked"))\"; exit 1\n".utf8).write(to: URL(fileURLWithPath: script))
        let installing = try await ChildProcess.run(
            "/usr/bin/env", ["python3"] + driver + ["--install-with", script], environment: environment, timeout: 60)
        #expect(installing.status == 1, "\(installing)")
        #expect(try String(contentsOfFile: fake.file("asked"), encoding: .utf8) == "duckdb\n")
        let pnlSh = try String(contentsOfFile: Repository.root + "/analytics/pnl.sh", encoding: .utf8)
        #expect(pnlSh.contains("exec python3") && pnlSh.contains("--install-with"), "pnl.sh ends in the driver")
    }

    @Test func helpIsTheUsageAndExit0() async throws {
        let result = try await PnLScript.run(["--help"])
        #expect(result.status == 0 && result.stdout.contains("usage: bash analytics/pnl.sh DIR"), "\(result)")
        #expect(result.stdout.contains("--as-of TIME"))
    }

    static let times: [(String, String, String)] = [
        ("2026-11-29T12:00:00Z", "2026-11-29T12:00:00.000Z", "2026-11-22"),
        ("2026-11-29T12:00:00.5Z", "2026-11-29T12:00:00.500Z", "2026-11-22"),
        ("2026-11-29T12:00:00.123456789Z", "2026-11-29T12:00:00.123Z", "2026-11-22"),
        ("2026-11-29T13:30:00+01:30", "2026-11-29T12:00:00.000Z", "2026-11-22"),
        ("2026-11-29T07:00:00.250-05:00", "2026-11-29T12:00:00.250Z", "2026-11-22"),
        // Past midnight in Paris is still the 29th in UTC: the windows are UTC days.
        ("2026-11-30T00:30:00+01:00", "2026-11-29T23:30:00.000Z", "2026-11-22"),
        ("2026-12-01T00:00:00.000Z", "2026-12-01T00:00:00.000Z", "2026-11-24"),
    ]

    @Test(arguments: times)
    func asOfTakesISO8601WithOrWithoutAFractionWithZOrAnOffset(_ time: (String, String, String)) async throws {
        // Held to the end: the directory goes with it.
        let fixture = try await summaries()
        let directory = fixture.directory
        let result = try await PnLScript.run([directory, "--json", "--as-of", time.0])
        #expect(result.status == 0, "\(result)")
        let report = try result.jsonObject()
        #expect(report["asOf"] as? String == time.1, "\(time.0)")
        let periods = try #require(report["periods"] as? [[String: Any]])
        #expect(periods.first { $0["period"] as? String == "7d" }?["since"] as? String == time.2 + "T00:00:00.000Z")
        withExtendedLifetime(fixture.data) {}
    }

    /// `--as-of=TIME` is `--as-of TIME` (the shell's parsing of the one word, whatever the time: checked once).
    @Test func asOfWithAnEqualsSignIsTheSame() async throws {
        let fixture = try await summaries()
        let time = Self.times[4].0
        let spaced = try await PnLScript.run([fixture.directory, "--json", "--as-of", time])
        let equals = try await PnLScript.run([fixture.directory, "--json", "--as-of=" + time])
        #expect(spaced.status == 0, "\(spaced)")
        #expect(equals.stdout == spaced.stdout, "--as-of=TIME is the same")
        withExtendedLifetime(fixture.data) {}
    }

    static let notTimes = [
        "2026-11-29", "2026-11-29 12:00:00Z", "yesterday", "2026-13-01T00:00:00Z", "2026-02-30T12:00:00Z",
        "2026-11-29T12:00:00", "2026-11-29T12:00:00+25:00", "2026-11-29T12:00:00z", "2026-11-29T12:00Z",
        "2026-11-29T12:00:00.Z", "\u{664}026-11-29T12:00:00Z",
    ]

    /// iso_time.py's runs for every text of ``notTimes``, made once in one interpreter.
    private static let notTimeRuns = Task { try await PnLScript.isoTime(notTimes) }

    /// Each text through the reader pnl.sh asks (`iso_time.py`, whose words and exit pnl.sh passes on as they are,
    /// the same for every text): its `main` run for each text, one interpreter for them all (pnl.sh's own run of it
    /// is pnlShPassesOnTheWordsForAnAsOfThatIsNotATime's).
    @Test(arguments: notTimes)
    func anAsOfThatIsNotATimeIsRefusedInPlainWords(_ text: String) async throws {
        let result = try #require(try await Self.notTimeRuns.value[text])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.hasPrefix("pnl.sh: --as-of \"\(text)\" "), "\(result)")
        #expect(
            result.stderr.contains("ISO 8601") || result.stderr.contains("exists") || result.stderr.contains("offset"))
        for leak in ["Traceback", "ValueError", "File \"", "strptime"] {
            #expect(!result.stderr.contains(leak), "\(leak): \(result)")
        }
    }

    /// A text that is no time, through pnl.sh itself: its exit 64 and the reader's words, nothing else.
    @Test func pnlShPassesOnTheWordsForAnAsOfThatIsNotATime() async throws {
        let directory = try TemporaryDirectory()
        let result = try await PnLScript.run([directory.path, "--as-of", "yesterday"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.hasPrefix("pnl.sh: --as-of \"yesterday\" is not an ISO 8601 time"), "\(result)")
        #expect(result.stdout.isEmpty && !result.stderr.contains("Traceback"), "\(result)")
    }

    /// Without --json, the table `credit pnl --summaries` prints, line for line (and --days the same).
    @Test(arguments: [[], ["--days", "7"], ["--days", "30"]])
    func theTableUnlessJSONAsCreditPrintsIt(_ days: [String]) async throws {
        let (data, directory) = try await summaries()
        let script = try await PnLScript.run([directory] + days)
        #expect(script.status == 0, "\(script)")
        let credit = try await Credit.run(["pnl", "--summaries", directory] + days, dataDirectory: data.path)
        #expect(credit.status == 0, "\(credit)")
        #expect(script.stdout == credit.stdout, "pnl.sh:\n\(script.stdout)\ncredit:\n\(credit.stdout)")
        // Features in the price list's words, the key beside them, as `credit pnl` on one account names them.
        #expect(script.stdout.contains("A clean text (cleanPassage)") && script.stdout.contains("LOSES MONEY"))
        #expect(script.stdout.contains("1 account counted, from 1 summary") && !script.stdout.contains("{"))
    }

    @Test func aDirectoryWithNothingToCountSaysSoInBothTools() async throws {
        let empty = try TemporaryDirectory()
        let data = try DataDirectory()
        for json in [[], ["--json"]] {
            let script = try await PnLScript.run([empty.path] + json)
            #expect(script.status == 1 && script.stdout.isEmpty, "\(script)")
            #expect(script.stderr.contains("there are no summaries in \(empty.path)"), "\(script)")
            let credit = try await Credit.run(["pnl", "--summaries", empty.path] + json, dataDirectory: data.path)
            #expect(credit.status == 1 && credit.stderr.contains("there are no summaries in"), "\(credit)")
            #expect(!(script.stdout + script.stderr + credit.stdout).contains("1970"))
        }
        try Data("{ not a summary".utf8).write(to: URL(fileURLWithPath: empty.file("bad.json")))
        let script = try await PnLScript.run([empty.path, "--json"])
        #expect(script.status == 1 && script.stderr.contains("left out: \(empty.file("bad.json"))"), "\(script)")
        #expect(script.stderr.contains("no summary in \(empty.path) could be counted"), "\(script)")
        let credit = try await Credit.run(["pnl", "--summaries", empty.path], dataDirectory: data.path)
        #expect(credit.status == 1 && credit.stderr.contains("could be counted"), "\(credit)")
    }

    /// A link named `.json` in the directory (to a summary that verifies, elsewhere) is left out and named by both
    /// tools, never followed: the directory is input, and a link in it is not trusted.
    @Test func aLinkInTheDirectoryIsLeftOutNotFollowed() async throws {
        let (data, directory) = try await summaries()
        let elsewhere = try TemporaryDirectory()
        try FileManager.default.moveItem(atPath: directory + "/mine.json", toPath: elsewhere.file("mine.json"))
        try FileManager.default.createSymbolicLink(
            atPath: directory + "/linked.json", withDestinationPath: elsewhere.file("mine.json"))
        let script = try await PnLScript.run([directory, "--json"])
        #expect(script.status == 1 && script.stderr.contains("left out: \(directory)/linked.json"), "\(script)")
        #expect(script.stderr.contains("symbolic link"), "\(script)")
        let credit = try await Credit.run(["pnl", "--summaries", directory, "--json"], dataDirectory: data.path)
        #expect(credit.status == 1 && credit.stderr.contains("linked.json"), "\(credit)")
        #expect(credit.stderr.contains("symbolic link") && credit.stdout.contains("could be counted"), "\(credit)")
    }

    /// The joined summaries a cluster's compaction writes (`{"file": PATH, "summary": ITS JSON}` a line, as pnl.py
    /// joins local files) are read with `--joined` to the same JSON as `pnl.sh` and `credit pnl --summaries`.
    @Test func summariesAlreadyJoinedGiveTheSameJSON() async throws {
        let (data, directory) = try await summaries()
        let path = directory + "/mine.json"
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "\n", with: " ")
        let file = String(decoding: try JSONEncoder().encode(path), as: UTF8.self)
        let joined = data.temporary.file("joined.ndjson")
        try Data("{\"file\": \(file), \"summary\": \(text)}\n".utf8).write(to: URL(fileURLWithPath: joined))
        let driver = try await PnLScript.driver(["--joined", joined, "--json"])
        #expect(driver.status == 0, "\(driver)")
        let script = try await PnLScript.run([directory, "--json"])
        let credit = try await Credit.run(["pnl", "--summaries", directory, "--json"], dataDirectory: data.path)
        #expect(script.status == 0 && credit.status == 0, "\(script)\n\(credit)")
        let figures = try [driver, script, credit].map {
            try JSONSerialization.jsonObject(with: Data($0.stdout.utf8)) as? NSDictionary
        }
        #expect(figures[0] != nil && figures[0] == figures[1] && figures[1] == figures[2], "\(driver.stdout)")
    }
}
