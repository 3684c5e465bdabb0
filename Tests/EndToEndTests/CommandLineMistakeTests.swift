import Foundation
import Testing

/// Command-line mistakes that exited 0 or 1 (or crashed) before the declarative parser, through the real binaries:
/// each is now exit 64, naming the option and the value, and nothing is written.
@Suite struct CommandLineMistakeTests {
    @Test(arguments: [
        // A repeated option was reported as "unknown option".
        (["charge", "debrief", "--subject", "a", "--subject", "b"], "--subject is given more than once"),
        // Exit 1 from the meter, or a trap on overflow (exit 132), or a charge of £50,000,000,000.01.
        (["charge", "transcript", "--seconds", "-5"], "--seconds \"-5\" is not a number of seconds from 1 to 360,000"),
        (["charge", "transcript", "--seconds", "0"], "--seconds \"0\""),
        (["charge", "transcript", "--seconds", "9223372036854775749"], "--seconds \"9223372036854775749\""),
        (["charge", "transcript", "--seconds", "100000000000000"], "from 1 to 360,000"),
        (["charge", "pushVault", "--quantity", "-1"], "--quantity \"-1\" is not a number of at least 0"),
        // Taken as they came.
        (["charge", "debrief", "--subject", String(repeating: "s", count: 257)], "it takes at most 256"),
        (["charge", "debrief", "--subject", ""], "--subject needs a value, got an empty one"),
        (["charge", "-x"], "unknown option -x for charge"),
        (["help", "nosuch"], "unknown command \"nosuch\""),
        (
            ["store", "use", "mockstore", "--url", "http://127.0.0.1:1", "--url", "http://127.0.0.1:2"],
            "--url is given more than once"
        ),
    ])
    func aMistakeIsExit64AndNamesTheOptionAndValue(_ arguments: [String], _ words: String) async throws {
        let data = try DataDirectory()
        let result = try await Credit.run(arguments, dataDirectory: data.path)
        #expect(result.status == 64, "credit \(arguments.prefix(6).joined(separator: " ")): \(result)")
        #expect(result.stderr.hasPrefix("credit: "))
        #expect(result.stderr.contains(words), "\(result.stderr)")
        #expect(result.stderr.contains("--help"))
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: data.path), "nothing is written")
    }

    @Test func declineTextHasALimit() async throws {
        let data = try DataDirectory()
        let id = try await #require(try data.ok("charge", "send", "--json").jsonObject()["id"] as? String)
        let before = try data.bytes(try data.ledgerFile)
        let long = try await data.credit(
            "decline", id, "--reason", "other", "--text", String(repeating: "w", count: 1_001))
        #expect(long.status == 64)
        #expect(long.stderr.contains("--text") && long.stderr.contains("at most 1000"))
        #expect(try data.bytes(try data.ledgerFile) == before)
        try await data.ok("decline", id, "--reason", "other", "--text", String(repeating: "w", count: 1_000))
    }

    @Test func aCommandNameIsNotTakenForTheDataDirectory() async throws {
        let scratch = try TemporaryDirectory()
        let result = try await Credit.run(["--data-dir", "balance"], dataDirectory: nil)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--data-dir needs a value (DIR), not the command \"balance\""))
        #expect(result.stderr.contains("--data-dir=balance"), "says how to mean a directory of that name")
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/balance/device"))
        let meant = try await Credit.run(["--data-dir=" + scratch.file("balance"), "balance"], dataDirectory: nil)
        #expect(meant.status == 0 && meant.stdout == "£5.00\n", "the = form takes any word")
    }

    @Test func helpWinsOverAMistakeInTheOptionsButNotInTheCommand() async throws {
        let data = try DataDirectory()
        let help = try await Credit.run(["charge", "--seconds", "abc", "--help"], dataDirectory: data.path)
        #expect(help.status == 0)
        #expect(help.stdout.contains("Usage: credit charge KEY"))
        #expect(help.stdout.contains("--seconds S") && help.stdout.contains("1 to 360,000"), "the range is stated")
        let unknown = try await Credit.run(["frobnicate", "--help"], dataDirectory: data.path)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown command \"frobnicate\""))
        #expect(!FileManager.default.fileExists(atPath: data.path))
    }

    @Test func controlCharactersInAValueAreShownEscaped() async throws {
        let data = try DataDirectory()
        let result = try await Credit.run(["takings", "--days", "\u{1B}[2J"], dataDirectory: data.path)
        #expect(result.status == 64)
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(result.stderr.contains(#"--days "[U+001B][2J" is not one of 7, 30"#))
    }
}

/// `credit-bench`'s command line: mistakes were exit 1, an unknown `--only` row ran nothing.
@Suite struct BenchCommandLineTests {
    static var bench: String? {
        guard let credit = Credit.binary else { return nil }
        let path = (credit as NSString).deletingLastPathComponent + "/credit-bench"
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// Runs `credit-bench arguments`, waiting for it without holding a thread of the cooperative pool.
    func run(_ arguments: [String]) async throws -> CommandResult {
        let result = try await ChildProcess.run(
            try #require(Self.bench, "credit-bench is not built"), arguments,
            environment: ProcessInfo.processInfo.environment, timeout: 120)
        return CommandResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    @Test(arguments: [
        (["--only", "append,nosuch"], "--only \"nosuch\" is not a row"),
        (["--entries", "99"], "--entries \"99\" is not a number of entries of at least 100"),
        (["--entries"], "--entries needs a value"),
        (["--fast"], "unknown option --fast"),
        (["--quick", "--quick"], "--quick is given more than once"),
    ])
    func mistakesAreExit64(_ arguments: [String], _ words: String) async throws {
        let result = try await run(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(words), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func helpIsExit0() async throws {
        let result = try await run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Usage: credit-bench"))
        for option in ["--entries N", "--quick", "--work DIR", "--keep", "--catalogue FILE", "--only ROWS"] {
            #expect(result.stdout.contains(option))
        }
    }
}
