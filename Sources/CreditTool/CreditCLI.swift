import CreditLedger
import Foundation
import OptionParsing
import Payments
import VoiceDebriefCredit

/// The `credit` command: reads the command line, runs one command, and maps what happened to an exit status.
struct CreditCLI {
    static let success = ExitStatus.success.rawValue
    static let failure = ExitStatus.failure.rawValue
    static let usage = ExitStatus.usage.rawValue

    var arguments: [String]
    /// An argument the program received that is not text (see ``RawArguments``): said, and nothing run.
    var argumentMistake: UsageError?

    init(arguments: [String]) {
        self.arguments = arguments
    }

    /// The arguments as the program received them, bytes.
    init(rawArguments: [[UInt8]]) {
        do {
            arguments = try RawArguments.decode(rawArguments)
        } catch {
            // Those that are text, for whether a failure is asked for in JSON too.
            arguments = rawArguments.compactMap { String(validating: $0, as: UTF8.self) }
            argumentMistake = error
        }
    }

    func run() async -> Int32 {
        Self.finishOutput(await runCommand())
    }

    /// Writes out what the command printed: output that could not be written (a full disk, a closed pipe) is a
    /// failure, said on standard error, exit 1 (a mistake in the command line stays 64).
    static func finishOutput(_ status: Int32) -> Int32 {
        guard let code = Console.current.output.flush() else { return status }
        printError("credit: " + OutputFailure.words(code))
        return status == success ? failure : status
    }

    private func runCommand() async -> Int32 {
        // Before the parse has said, any `--json` word asks for a failure in JSON too (a parse failure included).
        var json = arguments.contains { $0 == "--json" || $0.hasPrefix("--json=") }
        if let argumentMistake { return CreditCLI.fail(argumentMistake, json: json) }
        do {
            switch try CreditCommandLine.spec.parse(arguments) {
            case .help(let path):
                print(CreditCommandLine.spec.helpText(for: path))
                return CreditCLI.success
            case .version:
                print(CreditCommandLine.version)
                return CreditCLI.success
            case .run(let args):
                json = try args.value(of: CreditCommandLine.json)
                return try await run(args)
            }
        } catch {
            return CreditCLI.fail(error, json: json)
        }
    }

    /// Runs the command on its data directory. One that holds no account yet (not there, or empty) is never made an
    /// account by a command that only reads (it shows what a new account shows, and says so on standard error), nor
    /// by one about an account that exists (refused), and is left as it was by a command that fails: a command that
    /// fails makes nothing.
    private func run(_ args: ParsedArguments) async throws -> Int32 {
        var context = try Context(arguments: args)
        guard let command = try CreditCommands.command(for: args) else {
            throw UsageError("unknown command \"\(args.command)\"", command: ["credit"])
        }
        let given = NewDataDirectory(context.dataDirectory)
        if let refusal = given.refusal(of: command.accountUse) { throw refusal }
        if given.isNew && command.accountUse == .reads {
            printError(
                "credit: note: no account exists in \(DisplayText.escaped(context.dataDirectory)) yet: this is what "
                    + "a new one shows, and nothing was written there")
            let scratch = try NewDataDirectory.makeScratch()
            defer { scratch.remove() }
            context.dataDirectory = scratch.path
            return try await run(command, args, context)
        }
        do {
            let status = try await run(command, args, context)
            if status != CreditCLI.success { given.removeAfterFailure() }
            return status
        } catch {
            given.removeAfterFailure()
            throw error
        }
    }

    /// Checks the command, then runs it. A mistake in the command line found only now (by its `validate()` or its
    /// `run`) is said for the command (`credit charge`), for its "Run `credit charge --help`".
    private func run(_ command: any CreditCommand, _ args: ParsedArguments, _ context: Context) async throws -> Int32 {
        do {
            try command.validate()
            return try await command.run(context)
        } catch var error as UsageError {
            if error.command.isEmpty { error.command = args.path }
            throw error
        }
    }

    /// Says what went wrong on standard error (and, with `--json`, as `{"error": …}` on standard output), and
    /// gives the exit status: 64 for a mistake in the command line, 1 for anything else.
    static func fail(_ error: any Error, json: Bool) -> Int32 {
        let status = ExitStatus(for: error)
        let message: String
        var hint: String?
        switch error {
        case let error as UsageError:
            message = error.message
            hint =
                "Run `\(error.command.isEmpty ? "credit" : error.command.joined(separator: " ")) --help` for how to use it."
        case let error as ChargeError: message = error.description
        case let error as InputLimits.TooLong: message = error.description
        case let error as CreditFailure: message = error.description
        default: message = PlainWords.describe(error)
        }
        // A message may quote what a file or a user gave: drawn escaped, line by line (JSON keeps it exact).
        let shown = message.split(separator: "\n", omittingEmptySubsequences: false)
            .map { DisplayText.escaped(String($0)) }.joined(separator: "\n")
        printError("credit: \(shown)")
        if let hint { printError(hint) }
        if json {
            try? printJSON(["error": FailureJSON(kind: status == .usage ? "usage" : "failure", message: message)])
        }
        return status.rawValue
    }
}

/// Charges refused for a mistake in the command line (a key that is not one) are exit 64.
extension ChargeError: UsageMistake {
    public var isUsageMistake: Bool { isUsageError }
}

/// A value longer than its limit is a mistake in the command line.
extension InputLimits.TooLong: UsageMistake {
    public var isUsageMistake: Bool { true }
}

/// A failure for scripts (`{"error": {"kind": "usage"|"failure", "message": …}}`).
struct FailureJSON: Encodable {
    var kind: String
    var message: String
}
