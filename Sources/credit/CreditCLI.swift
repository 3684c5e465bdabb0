import CreditLedger
import Foundation
import OptionParsing
import Payments
import VoiceDebriefCredit

/// The `credit` command: reads the command line, runs one command, and maps what happened to an exit status.
struct CreditCLI {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 64

    var arguments: [String]

    func run() async -> Int32 {
        do {
            switch try CreditCommandLine.spec.parse(arguments) {
            case .help(let path):
                print(CreditCommandLine.spec.helpText(for: path))
                return CreditCLI.success
            case .version:
                // Only a root that declares a version is asked for it; credit declares none yet.
                return CreditCLI.usage
            case .run(let args):
                let context = try Context(arguments: args)
                return try await dispatch(args, context)
            }
        } catch let error as UsageError {
            printError("credit: \(error.message)")
            let command = error.command.isEmpty ? "credit" : error.command.joined(separator: " ")
            printError("Run `\(command) --help` for how to use it.")
            return CreditCLI.usage
        } catch let error as CommandFailure {
            printError("credit: \(error.message)")
            return CreditCLI.failure
        } catch {
            printError("credit: \(error)")
            return CreditCLI.failure
        }
    }

    /// Runs the command the parser chose (`args.path` is `["credit", COMMAND, …]`).
    private func dispatch(_ args: ParsedArguments, _ context: Context) async throws -> Int32 {
        switch args.path.dropFirst().first {
        case "screen": return try await screen(args, context)
        case "balance": return try balance(args, context)
        case "charge": return try charge(args, context)
        case "decline": return try decline(args, context)
        case "topup": return try await topUp(args, context)
        case "collect": return try await collect(args, context)
        case "takings": return try takings(args, context)
        case "entries": return try entries(args, context)
        case "prices": return try prices(args, context)
        case "merge": return try merge(args, context)
        case "join": return try join(args, context)
        case "devices": return try devices(args, context)
        case "run": return try runActs(args, context)
        case "verify": return try verify(args, context)
        case "upgrade": return try upgrade(args, context)
        case "store": return try store(args, context)
        default: throw UsageError("unknown command \"\(args.command)\"", command: ["credit"])
        }
    }
}

/// A failure the command explains (exit 1).
struct CommandFailure: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Prints a JSON value (dictionaries, arrays, strings, numbers, bools, NSNull) with sorted keys.
func printJSON(_ value: Any) throws {
    let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
    print(String(decoding: data, as: UTF8.self))
}
