import Foundation
import Testing

/// Issue 26: what DuckDB and Spark total is what was verified. `credit-summary-verify DIR --joined FILE` writes the
/// very bytes it checked into one new file, and `analytics/pnl.sh` hands the engine that file alone: a summary
/// changed after its check changes nothing counted.
@Suite struct JoinedSummariesTests {
    /// A directory with one account's summary, and a data directory to run `credit` in.
    private func summaries() async throws -> (data: DataDirectory, directory: String) {
        let data = try DataDirectory()
        try await data.ok(
            "charge", "transcript", "--seconds", "76", "--subject", "note-1", now: "2026-11-20T09:00:00.000Z")
        try await data.ok("charge", "debrief", "--subject", "note-1", now: "2026-11-28T09:00:00.000Z")
        let directory = data.temporary.file("summaries")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try await data.ok("export", "--summary", directory + "/mine.json", now: "2026-11-29T11:00:00.000Z")
        return (data, directory)
    }

    private func verify(_ arguments: [String]) async throws -> CommandResult {
        let result = try await ChildProcess.run(
            try Binaries.require("credit-summary-verify"), arguments,
            environment: ProcessInfo.processInfo.environment, timeout: 300)
        return CommandResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    private func json(_ text: String) -> NSDictionary? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? NSDictionary
    }

    @Test func theJoinedFileHoldsTheBytesCheckedAndTheEngineReadsOnlyIt() async throws {
        let (data, directory) = try await summaries()
        let original = try String(contentsOfFile: directory + "/mine.json", encoding: .utf8)
        // A copy with one figure changed: it does not verify, so it is named and not joined.
        try original.replacingOccurrences(of: "\"charges\" : 1,", with: "\"charges\" : 2,")
            .write(toFile: directory + "/altered.json", atomically: true, encoding: .utf8)
        let before = try await Credit.run(["pnl", "--summaries", directory, "--json"], dataDirectory: data.path)
        let joined = data.temporary.file("joined.ndjson")
        let verified = try await verify([directory, "--joined", joined])
        #expect(verified.status == 0, "\(verified)")
        #expect(verified.stdout == directory + "/mine.json\n")
        #expect(verified.stderr.contains("left out: \(directory)/altered.json: the signature does not verify"))
        let lines = try String(contentsOfFile: joined, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1)
        let line = try #require(lines.first.flatMap { json(String($0)) })
        #expect(line["file"] as? String == directory + "/mine.json")
        #expect(line["summary"] as? NSDictionary == json(original), "the summary as it was read")
        let attributes = try FileManager.default.attributesOfItem(atPath: joined)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        // The file changed after its check (here: replaced by the altered copy): the engine still totals what was
        // checked, as `credit pnl --summaries` did before the change.
        try FileManager.default.removeItem(atPath: directory + "/mine.json")
        try FileManager.default.moveItem(atPath: directory + "/altered.json", toPath: directory + "/mine.json")
        let engine = try await PnLScript.driver(["--joined", joined, "--expect", "1", "--json"])
        #expect(engine.status == 0, "\(engine)")
        #expect(json(engine.stdout) != nil && json(engine.stdout) == json(before.stdout), "\(engine.stdout)")
    }

    @Test func aCountThatIsNotTheVerifiersIsAnErrorNotASmallerTotal() async throws {
        let (data, directory) = try await summaries()
        let joined = data.temporary.file("joined.ndjson")
        await #expect(try verify([directory, "--joined", joined]).status == 0)
        let engine = try await PnLScript.driver(["--joined", joined, "--expect", "2", "--json"])
        #expect(engine.status == 1, "\(engine)")
        #expect(engine.stderr.contains("DuckDB read 1 of the 2 verified summaries"), "\(engine)")
        #expect(engine.stdout.isEmpty)
    }

    /// The joined file is new: a file already there, or a link planted where it goes, is refused and left as it was.
    @Test(arguments: [false, true])
    func theJoinedFileIsNeverOneAlreadyThere(_ planted: Bool) async throws {
        let (data, directory) = try await summaries()
        let target = data.temporary.file("kept.txt")
        try "kept\n".write(toFile: target, atomically: true, encoding: .utf8)
        let joined = planted ? data.temporary.file("joined.ndjson") : target
        if planted { try FileManager.default.createSymbolicLink(atPath: joined, withDestinationPath: target) }
        let verified = try await verify([directory, "--joined", joined])
        #expect(verified.status == 1, "\(verified)")
        #expect(
            verified.stderr
                == "credit-summary-verify: \(joined) already exists: the joined summaries go to a new file\n")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "kept\n")
        #expect(verified.stdout.isEmpty)
    }

    /// A directory that is not there, or a file given for one, is said in words by the three tools, exit 1.
    @Test(arguments: [(false, "there is no such file or directory"), (true, "it is not a directory")])
    func aDirectoryThatCannotBeListedIsSaidInWords(_ isFile: Bool, _ words: String) async throws {
        let (data, directory) = try await summaries()
        let path = isFile ? directory + "/mine.json" : data.temporary.file("not-there")
        let verified = try await verify([path])
        #expect(verified.status == 1 && verified.stderr == "credit-summary-verify: cannot read \(path): \(words)\n")
        let script = try await PnLScript.run([path, "--json"])
        #expect(script.status == 1 && script.stderr.contains("cannot read \(path): \(words)"), "\(script)")
        let credit = try await Credit.run(["pnl", "--summaries", path], dataDirectory: data.path)
        #expect(credit.status == 1, "\(credit)")
        #expect(credit.stderr.contains("cannot read the summaries in \(path): \(words)"), "\(credit)")
        for result in [verified, script, credit] {
            #expect(!(result.stdout + result.stderr).contains("Error Domain"), "\(result)")
        }
    }

    @Test func theVerifierSaysItsNewOptionInItsHelp() async throws {
        let help = try await verify(["--help"])
        #expect(help.status == 0 && help.stdout.contains("--joined FILE"), "\(help)")
        await #expect(try verify(["DIR", "--joined"]).status == 64)
    }
}
