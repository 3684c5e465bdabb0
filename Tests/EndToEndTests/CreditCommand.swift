import Foundation
import TestSupport
import Testing

/// What one run of the `credit` binary did.
struct CommandResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String
    /// The most memory the process held at once, when known.
    var peakResidentBytes: Int? = nil

    var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }

    /// Standard output read as JSON.
    func json() throws -> Any {
        try JSONSerialization.jsonObject(with: Data(stdout.utf8), options: [.fragmentsAllowed])
    }

    func jsonObject() throws -> [String: Any] {
        try #require(try json() as? [String: Any], "not a JSON object: \(stdout)")
    }

    func jsonArray() throws -> [[String: Any]] {
        try #require(try json() as? [[String: Any]], "not a JSON array of objects: \(stdout)")
    }
}

/// Runs the built `credit` binary, found beside the test bundle (the build folder; see ``Binaries``).
enum Credit {
    /// How long one command may take before it is killed and counts as a hang.
    static let timeout: TimeInterval = 120

    /// The binary, or nil when it was not built.
    static var binary: String? { Binaries.path("credit") }

    static func requireBinary(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try Binaries.require("credit", sourceLocation: sourceLocation)
    }

    /// Runs `credit` with `arguments` (the data directory first when given), `NO_COLOR=1`, a fixed `CREDIT_NOW`
    /// when given, and a HOME of its own so nothing outside the test's directories is touched.
    static func run(
        _ arguments: [String], dataDirectory: String?, now: String? = nil, environment: [String: String] = [:],
        input: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CommandResult {
        let binary = try requireBinary(sourceLocation: sourceLocation)
        let home = try TemporaryDirectory(prefix: "credit-run")
        var env = ProcessInfo.processInfo.environment
        for name in ["CREDIT_DATA_DIR", "XDG_DATA_HOME", "CREDIT_NOW", "CREDIT_FAULT", "TERM"] { env[name] = nil }
        env["NO_COLOR"] = "1"
        env["HOME"] = home.path
        if let now { env["CREDIT_NOW"] = now }
        for (name, value) in environment { env[name] = value }
        let result = try ChildProcess.run(
            binary, (dataDirectory.map { ["--data-dir", $0] } ?? []) + arguments, environment: env, input: input,
            timeout: timeout)
        let note = result.timedOut ? "\n[killed: still running after \(timeout) s]\n" : ""
        return CommandResult(
            status: result.status, stdout: result.stdout, stderr: result.stderr + note,
            peakResidentBytes: result.peakResidentBytes)
    }
}

/// A data directory for one test, and a way to run `credit` on it.
final class DataDirectory {
    let temporary: TemporaryDirectory
    let path: String

    init() throws {
        temporary = try TemporaryDirectory()
        path = temporary.path + "/data"
    }

    @discardableResult
    func credit(
        _ arguments: String..., now: String? = "2026-11-29T12:00:00.000Z", input: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CommandResult {
        try Credit.run(arguments, dataDirectory: path, now: now, input: input, sourceLocation: sourceLocation)
    }

    /// Runs `credit` and expects exit 0, returning what it printed.
    @discardableResult
    func ok(
        _ arguments: String..., now: String? = "2026-11-29T12:00:00.000Z", input: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CommandResult {
        let result = try Credit.run(
            arguments, dataDirectory: path, now: now, input: input, sourceLocation: sourceLocation)
        #expect(
            result.status == 0, "credit \(arguments.joined(separator: " ")) failed: \(result)",
            sourceLocation: sourceLocation)
        return result
    }

    var device: String {
        get throws {
            let text = try String(contentsOfFile: path + "/device", encoding: .utf8)
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    var ledgerFile: String { get throws { path + "/ledger/" + (try device) + ".jsonl" } }

    func bytes(_ file: String) throws -> [UInt8] {
        Array(try #require(FileManager.default.contents(atPath: file), "cannot read \(file)"))
    }

    /// The balance, through `credit balance --json`.
    func balance(sourceLocation: SourceLocation = #_sourceLocation) throws -> Int64 {
        let object = try ok("balance", "--json", sourceLocation: sourceLocation).jsonObject()
        return try #require((object["balance"] as? NSNumber)?.int64Value, sourceLocation: sourceLocation)
    }
}

func int64(_ value: Any?) -> Int64? { (value as? NSNumber)?.int64Value }
