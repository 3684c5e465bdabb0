import CreditTool
import Foundation
import TestSupport
import Testing

/// The reliability suites' name for a temporary directory (``TemporaryDirectory``, on /dev/shm with `inMemory`).
typealias ScratchDirectory = TemporaryDirectory

/// The reliability suites' name for a failure of the support code.
typealias ProcessFailure = SupportFailure

/// Runs `credit` on one data directory: the real binary when a `CREDIT_FAULT` is to kill it (only a process can die
/// of one) or a test holds it running (``start(_:fault:input:)``), in process otherwise (the set-up and the checks
/// around a crash), through the library the binary is a thin `main` over.
struct CreditRunner {
    let binary: String
    let dataDirectory: String
    /// A fixed clock for `CREDIT_NOW`, or nil for the system clock.
    var now: String?
    /// How long one command may take before it counts as a hang.
    var timeout: Double = 60

    init(dataDirectory: String, now: String? = nil) throws {
        binary = try Binaries.require("credit")
        self.dataDirectory = dataDirectory
        self.now = now
    }

    func environment(fault: String?) -> [String: String] {
        var env: [String: String] = [:]
        for name in ["PATH", "TMPDIR", "LANG", "LC_ALL"] {
            if let value = Reliability.environment[name] { env[name] = value }
        }
        env["NO_COLOR"] = "1"
        env["HOME"] = dataDirectory + "-home"
        if let now { env["CREDIT_NOW"] = now }
        if let fault { env["CREDIT_FAULT"] = fault }
        return env
    }

    func start(_ arguments: [String], fault: String? = nil, input: String? = nil) throws -> ChildProcess {
        try ChildProcess(
            binary, ["--data-dir", dataDirectory] + arguments, environment: environment(fault: fault), input: input)
    }

    /// Runs `credit ARGUMENTS`, with `CREDIT_FAULT=fault` when given (the binary), and waits for it.
    func run(_ arguments: [String], fault: String? = nil, input: String? = nil) async throws -> ProcessResult {
        if fault != nil {
            return try await start(arguments, fault: fault, input: input).wait(timeout: timeout)
        }
        let output = CapturedOutput()
        let errors = CapturedOutput()
        let all = ["--data-dir", dataDirectory] + arguments
        let environment = environment(fault: nil)
        // On a thread of its own (its writes wait for the disk); the time limit is for a hang only.
        let status = try await withinTimeLimit(seconds: Int(timeout)) {
            await OwnThreadExecutor.run {
                await CreditTool.run(
                    arguments: all, environment: environment, input: .text(input ?? ""), output: output.output,
                    errors: errors.output)
            }
        }
        return ProcessResult(status: status, signaled: false, stdout: output.written, stderr: errors.written)
    }

    /// Runs and expects exit 0.
    @discardableResult
    func ok(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> ProcessResult {
        let result = try await run(arguments)
        try #require(
            result.succeeded, "credit \(arguments.joined(separator: " ")) failed: \(result)",
            sourceLocation: sourceLocation)
        return result
    }

    /// `credit balance --json`.
    func balance(sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int64 {
        let object = try await #require(
            try ok(["balance", "--json"], sourceLocation: sourceLocation).jsonObject(), sourceLocation: sourceLocation)
        return try #require((object["balance"] as? NSNumber)?.int64Value, sourceLocation: sourceLocation)
    }
}
