import CreditTool
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
    /// When the binary exited (a run in process has none).
    var exitedAt: Date? = nil

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

/// Runs `credit`: in process through ``CreditTool`` (the library the binary is a thin `main` over), or, where a test
/// is about the binary itself (its exit on a signal, a fault that kills it, its memory), the built binary.
enum Credit {
    /// How long one run of the binary may take before it is killed and counts as a hang.
    static let timeout: TimeInterval = 120

    /// The binary, or nil when it was not built.
    static var binary: String? { Binaries.path("credit") }

    /// The mock store's customer every `credit` run here acts for (`MOCKSTORE_CUSTOMER`): a test's own on a shared
    /// store (``StoreProcess/withShared(catalogue:_:)``); nil: the store's default customer.
    @TaskLocal static var customer: String?

    static func requireBinary(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try Binaries.require("credit", sourceLocation: sourceLocation)
    }

    /// Runs `credit` with `arguments` (the data directory first when given), `NO_COLOR=1`, a fixed `CREDIT_NOW`
    /// when given, and a HOME of its own so nothing outside the test's directories is touched: in process, unless
    /// `binary` (or a `CREDIT_FAULT`, which only a process can die of) asks for the real one.
    static func run(
        _ arguments: [String], dataDirectory: String?, now: String? = nil, environment: [String: String] = [:],
        input: String? = nil, binary: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> CommandResult {
        let home = try TemporaryDirectory(prefix: "credit-run")
        var env = ProcessInfo.processInfo.environment
        for name in ["CREDIT_DATA_DIR", "XDG_DATA_HOME", "CREDIT_NOW", "CREDIT_FAULT", "TERM"] { env[name] = nil }
        env["NO_COLOR"] = "1"
        env["HOME"] = home.path
        if let now { env["CREDIT_NOW"] = now }
        if let customer { env["MOCKSTORE_CUSTOMER"] = customer }
        for (name, value) in environment { env[name] = value }
        let all = (dataDirectory.map { ["--data-dir", $0] } ?? []) + arguments
        if binary || env["CREDIT_FAULT"] != nil {
            return try await runBinary(all, environment: env, input: input, sourceLocation: sourceLocation)
        }
        let output = CapturedOutput()
        let errors = CapturedOutput()
        // On a thread of its own: a command's writes wait for the disk (fdatasync), and the cooperative pool is
        // what the rest of the suite resumes on.
        let commandEnvironment = env
        let status = await OwnThreadExecutor.run {
            await CreditTool.run(
                arguments: all, environment: commandEnvironment, input: .text(input ?? ""), output: output.output,
                errors: errors.output)
        }
        return CommandResult(status: status, stdout: output.written, stderr: errors.written)
    }

    /// Runs the built binary with exactly `environment`.
    private static func runBinary(
        _ arguments: [String], environment: [String: String], input: String?, sourceLocation: SourceLocation
    ) async throws -> CommandResult {
        let path = try requireBinary(sourceLocation: sourceLocation)
        let result = try await ChildProcess.run(
            path, arguments, environment: environment, input: input, timeout: timeout)
        let note = result.timedOut ? "\n[killed: still running after \(timeout) s]\n" : ""
        return CommandResult(
            status: result.status, stdout: result.stdout, stderr: result.stderr + note,
            peakResidentBytes: result.peakResidentBytes, exitedAt: result.exitedAt)
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
    ) async throws -> CommandResult {
        try await Credit.run(arguments, dataDirectory: path, now: now, input: input, sourceLocation: sourceLocation)
    }

    /// Runs `credit` and expects exit 0, returning what it printed.
    @discardableResult
    func ok(
        _ arguments: String..., now: String? = "2026-11-29T12:00:00.000Z", input: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> CommandResult {
        let result = try await Credit.run(
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
    func balance(sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int64 {
        let object = try await ok("balance", "--json", sourceLocation: sourceLocation).jsonObject()
        return try #require((object["balance"] as? NSNumber)?.int64Value, sourceLocation: sourceLocation)
    }
}

func int64(_ value: Any?) -> Int64? { (value as? NSNumber)?.int64Value }
