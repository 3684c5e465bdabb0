import CreditTool
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a prober of the command found (December): a link planted inside a merged or joined directory followed, a
/// decoder's words in a note, output lost without a failure, arguments that are not text read with their bytes
/// replaced, usage mistakes that were not exit 64, and a `run` file with CRLF line ends read as one line.
@Suite struct ProbedCommandTests {
    static let now = "2026-11-29T12:00:00.000Z"

    /// An environment of its own for a run through ``CreditTool`` directly (a test's own output or arguments).
    static func environment(home: TemporaryDirectory) -> [String: String] {
        ["HOME": home.path, "NO_COLOR": "1", "CREDIT_NOW": now]
    }
}

// MARK: - A link inside the source of a merge or a join

extension ProbedCommandTests {
    /// X is a copy of A's data directory whose `name` is a link to another copy of it: a merge of X, and a join from
    /// it, refuse the link by name (as in the user's own data directory), and nothing is taken or made.
    @Test(arguments: ["ledger", "heads"])
    func aLinkInsideAMergedOrJoinedDirectoryIsRefusedByName(_ name: String) async throws {
        let a = try DataDirectory()
        try await a.ok("charge", "debrief")
        let source = a.temporary.path + "/source"
        let elsewhere = a.temporary.path + "/elsewhere"
        try FileManager.default.copyItem(atPath: a.path, toPath: source)
        try FileManager.default.copyItem(atPath: a.path + "/" + name, toPath: elsewhere)
        try FileManager.default.removeItem(atPath: source + "/" + name)
        #expect(symlink(elsewhere, source + "/" + name) == 0)
        let before = DirectorySnapshot.take(a.path)
        let merged = try await a.credit("merge", source)
        #expect(merged.status == 1, "\(merged)")
        #expect(merged.stderr.contains("\(source)/\(name) is a symbolic link"), "\(merged)")
        #expect(merged.stderr.contains("never reached through a link"), "\(merged)")
        #expect(DirectorySnapshot.take(a.path) == before, "nothing was merged")
        let b = try DataDirectory()
        let joined = try await b.credit("join", source)
        #expect(joined.status == 1, "\(joined)")
        #expect(joined.stderr.contains("\(source)/\(name) is a symbolic link"), "\(joined)")
        #expect(!FileManager.default.fileExists(atPath: b.path), "nothing was made")
    }

    @Test func aJoinFromADirectoryWhoseKeysAreALinkIsRefusedByName() async throws {
        let a = try DataDirectory()
        try await a.ok("charge", "debrief")
        let source = a.temporary.path + "/source"
        try FileManager.default.copyItem(atPath: a.path, toPath: source)
        try FileManager.default.moveItem(atPath: source + "/keys", toPath: a.temporary.path + "/keys-elsewhere")
        #expect(symlink(a.temporary.path + "/keys-elsewhere", source + "/keys") == 0)
        let b = try DataDirectory()
        let joined = try await b.credit("join", source)
        #expect(joined.status == 1, "\(joined)")
        #expect(joined.stderr.contains("\(source)/keys is a symbolic link"), "\(joined)")
        #expect(!FileManager.default.fileExists(atPath: b.path), "nothing was made")
    }
}

// MARK: - Words from the data directory

extension ProbedCommandTests {
    /// A head that is not one is said in plain words naming the file, by every command that reads it: never the
    /// decoder's own ("DecodingError.keyNotFound", "CodingKeys(stringValue: …)").
    @Test(arguments: [
        ("{}", "is not a signed head: \"device\" is missing"),
        ("{\"device\":\"x\",\"sequence\":\"a\"}", "is not a signed head: \"sequence\" is not of the right type"),
        ("garbage", "is not a signed head: it is not JSON"),
        ("[]", "is not a signed head: the value is not of the right type"),
    ])
    func aDamagedHeadIsSaidInPlainWordsNamingTheFile(_ content: String, _ words: String) async throws {
        let data = try DataDirectory()
        try await data.ok("charge", "debrief")
        let head = data.path + "/heads/" + (try data.device) + ".json"
        try Data((content + "\n").utf8).write(to: URL(fileURLWithPath: head))
        for command in [["balance"], ["devices"], ["verify"]] {
            let result = try await Credit.run(command, dataDirectory: data.path, now: Self.now)
            let said = result.stdout + result.stderr
            #expect(said.contains(head + " " + words), "\(command): \(result)")
            for framework in ["DecodingError", "CodingKeys", "Debug description", "keyNotFound"] {
                #expect(!said.contains(framework), "\(command): \(result)")
            }
        }
    }

    @Test func aDamagedHeadSigningKeyIsNamedWithWhatToDo() async throws {
        let data = try DataDirectory()
        try await data.ok("charge", "debrief")
        let key = data.path + "/keys/head-signing.pem"
        try Data("garbage\n".utf8).write(to: URL(fileURLWithPath: key))
        // The counter reads the signed checkpoint, which needs no signing key: it still answers.
        #expect(try await Credit.run(["balance"], dataDirectory: data.path, now: Self.now).status == 0)
        for command in [["verify"], ["charge", "debrief"]] {
            let result = try await Credit.run(command, dataDirectory: data.path, now: Self.now)
            #expect(result.status == 1, "\(command): \(result)")
            #expect(result.stderr.contains(key + " is not a head-signing key"), "\(command): \(result)")
            #expect(result.stderr.contains("Restore it"), "\(command): \(result)")
            #expect(!result.stderr.contains("PEM block"), "\(command): \(result)")
        }
    }
}

// MARK: - Output that cannot be written

extension ProbedCommandTests {
    /// `credit balance >/dev/full`: the output is lost, so the command failed, and says so in plain words.
    @Test(
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"),
        arguments: [["balance"], ["entries", "--json"], ["charge", "debrief"]])
    func outputThatCannotBeWrittenIsAFailure(_ command: [String]) async throws {
        let data = try DataDirectory()
        try await data.ok("charge", "debrief")
        let home = try TemporaryDirectory()
        let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(full >= 0)
        defer { close(full) }
        let errors = CapturedOutput()
        let (arguments, environment) = (["--data-dir", data.path] + command, Self.environment(home: home))
        let status = await OwnThreadExecutor.run {
            await CreditTool.run(
                arguments: arguments, environment: environment, input: .text(""), output: .descriptor(full),
                errors: errors.output)
        }
        #expect(status == 1, "\(command): \(errors.written)")
        #expect(errors.written == "credit: cannot write the output: no space left on device\n", "\(command)")
    }

    /// The same descriptor output, to a file that takes it: every word arrives, and the command succeeds.
    @Test func outputToADescriptorArrivesWhole() async throws {
        let data = try DataDirectory()
        for _ in 0..<3 { try await data.ok("charge", "debrief") }
        let home = try TemporaryDirectory()
        let expected = try await data.ok("entries").stdout
        let file = home.file("entries.txt")
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(fd >= 0)
        defer { close(fd) }
        let errors = CapturedOutput()
        let (arguments, environment) = (["--data-dir", data.path, "entries"], Self.environment(home: home))
        let status = await OwnThreadExecutor.run {
            await CreditTool.run(
                arguments: arguments, environment: environment, input: .text(""), output: .descriptor(fd),
                errors: errors.output)
        }
        #expect(status == 0, "\(errors.written)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == expected)
    }

    /// A writer of the caller's that fails: said once the command has run; a usage mistake stays exit 64.
    @Test func aFailedWriteKeepsAUsageMistakeExit64() async throws {
        let home = try TemporaryDirectory()
        let errors = CapturedOutput()
        let failing = CommandOutput({ _ in }, flush: { EIO })
        let done = await CreditTool.run(
            arguments: ["prices"], environment: Self.environment(home: home), input: .text(""), output: failing,
            errors: errors.output)
        #expect(done == 1)
        #expect(errors.written.contains("credit: cannot write the output: input/output error"), "\(errors.written)")
        let mistake = await CreditTool.run(
            arguments: ["nosuch", "--json"], environment: Self.environment(home: home), input: .text(""),
            output: failing, errors: CapturedOutput().output)
        #expect(mistake == 64)
    }
}

// MARK: - Arguments that are not text

extension ProbedCommandTests {
    /// `credit --data-dir $'/tmp/x\xff\xfe' balance` made a directory named with U+FFFD; now it is exit 64, naming
    /// the argument by its position, and nothing is made.
    @Test func anArgumentThatIsNotUTF8IsAUsageMistakeNamingItsPosition() async throws {
        let folder = try TemporaryDirectory()
        let home = try TemporaryDirectory()
        let errors = CapturedOutput()
        let output = CapturedOutput()
        let raw = [Array("--data-dir".utf8), Array((folder.path + "/x").utf8) + [0xFF, 0xFE], Array("balance".utf8)]
        let status = await CreditTool.run(
            rawArguments: raw, environment: Self.environment(home: home), input: .text(""), output: output.output,
            errors: errors.output)
        #expect(status == 64, "\(errors.written)")
        #expect(errors.written.contains("argument 2 (\"\(folder.path)/x\\xFF\\xFE\") is not valid UTF-8"))
        #expect(output.written.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing was made")
    }

    @Test func aSubjectThatIsNotUTF8IsNotStored() async throws {
        let data = try DataDirectory()
        try await data.ok("charge", "debrief")
        let before = try data.bytes(try data.ledgerFile)
        let home = try TemporaryDirectory()
        let errors = CapturedOutput()
        let output = CapturedOutput()
        let raw =
            ["--data-dir", data.path, "charge", "readNote", "--subject"].map { Array($0.utf8) } + [
                [0xFF, 0xFE, 0x20, 0x78]
            ]
        let status = await CreditTool.run(
            rawArguments: raw + [Array("--json".utf8)], environment: Self.environment(home: home),
            input: .text(""), output: output.output, errors: errors.output)
        #expect(status == 64, "\(errors.written)")
        #expect(errors.written.contains("argument 6"), "\(errors.written)")
        #expect(output.written.contains("\"kind\":\"usage\""), "a failure in JSON too: \(output.written)")
        #expect(try data.bytes(try data.ledgerFile) == before, "nothing was charged")
    }
}

// MARK: - Usage mistakes

extension ProbedCommandTests {
    @Test(arguments: [
        "http://127.0.0.1:99999", "http://127.0.0.1:0", "http://[::1]:65536/", "http://h:99999999999999999999",
    ])
    func aStoreURLWhosePortIsNoPortIsAUsageMistake(_ url: String) async throws {
        let data = try DataDirectory()
        try await data.ok("charge", "debrief")
        let secret = data.temporary.path + "/secret"
        try Data("a shared secret of some length".utf8).write(to: URL(fileURLWithPath: secret))
        #expect(chmod(secret, 0o600) == 0)
        let result = try await data.credit("store", "use", "mockstore", "--url", url, "--secret-file", secret)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("is not a URL the store can be reached at"), "\(result)")
        #expect(result.stderr.contains("from 1 to 65535"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: data.path + "/store.json"), "nothing was saved")
        try await data.ok("store", "use", "mockstore", "--url", "http://127.0.0.1:65535", "--secret-file", secret)
    }

    @Test func versionWithAWordIsAUsageMistakeAndHelpHelpIsTheHelpOfHelp() async throws {
        let version = try await Credit.run(["--version", "extra"], dataDirectory: nil)
        #expect(version.status == 64, "\(version)")
        #expect(version.stderr.contains("unexpected argument \"extra\""), "\(version)")
        #expect(version.stdout.isEmpty)
        let help = try await Credit.run(["help", "help"], dataDirectory: nil)
        #expect(help.status == 0, "\(help)")
        #expect(help.stdout.hasPrefix("Usage: credit help [COMMAND]"), "\(help)")
        #expect(help.stderr.isEmpty, "\(help)")
    }
}

// MARK: - Shares and `run` files

extension ProbedCommandTests {
    @Test func aShareIsRoundedNotCut() async throws {
        let data = try DataDirectory()
        var first: String?
        for _ in 0..<6 {
            let charged = try await data.ok("charge", "debrief", "--json").jsonObject()
            first = first ?? (charged["id"] as? String)
        }
        try await data.ok("decline", try #require(first), "--reason", "test")
        let text = try await data.ok("pnl").stdout
        #expect(text.contains("16.67%") && !text.contains("16.66%"), "\(text)")
        let json = try await data.ok("pnl", "--json").jsonObject()
        let periods = try #require(json["periods"] as? [[String: Any]])
        let total = try #require(periods.first?["total"] as? [String: Any])
        #expect(int64(total["declinedShareBasisPoints"]) == 1_667, "\(total)")
    }

    /// A file written on Windows: CRLF ends a line (and so does a CR at the very end), and lines are counted as
    /// they are seen.
    @Test func aRunFileWithCRLFLineEndsIsReadLineByLine() async throws {
        let data = try DataDirectory()
        let good = data.temporary.path + "/acts.txt"
        try Data("readNote --subject a\r\n\r\n# a comment\r\ndebrief\r".utf8).write(to: URL(fileURLWithPath: good))
        let ran = try await data.ok("run", good)
        #expect(ran.stdout.contains("line 1: Note opened to read (a)"), "\(ran)")
        #expect(ran.stdout.contains("line 4: Debrief"), "\(ran)")
        let wrong = data.temporary.path + "/wrong.txt"
        try Data("readNote --subject a\r\nreadNote\r\n".utf8).write(to: URL(fileURLWithPath: wrong))
        let refused = try await data.credit("run", wrong)
        #expect(refused.status == 64, "\(refused)")
        #expect(refused.stderr.contains("wrong.txt line 2: readNote needs --subject"), "\(refused)")
        #expect(!refused.stderr.contains("unexpected argument"), "\(refused)")
    }
}
