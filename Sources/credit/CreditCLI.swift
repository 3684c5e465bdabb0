import CreditLedger
import Foundation
import Payments
import VoiceDebriefCredit

/// The `credit` command: reads the command line, runs one command, and maps what happened to an exit status.
struct CreditCLI {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 64

    var arguments: [String]

    func run() async -> Int32 {
        var command = "screen"
        do {
            var words = arguments
            // The command is the first word that is not an option or an option's value.
            var index = 0
            var found: Int?
            while index < words.count {
                let word = words[index]
                if word == "--data-dir" {
                    index += 2
                    continue
                }
                if !word.hasPrefix("-") {
                    found = index
                    break
                }
                index += 1
            }
            if let found { command = words.remove(at: found) }
            var args = Arguments(words, command: command)
            let help = args.flag("--help") || args.flag("-h")
            if command == "help" {
                _ = try args.option("--data-dir")  // so that its value is not taken for the topic
                let topic = try args.positional()
                print(topic.flatMap { HelpText.commands[$0] } ?? HelpText.overview)
                return CreditCLI.success
            }
            guard let text = HelpText.commands[command] else {
                throw UsageError("unknown command \"\(command)\"")
            }
            if help {
                print(found == nil ? HelpText.overview : text)
                return CreditCLI.success
            }
            let context = try Context(arguments: &args)
            return try await dispatch(command, &args, context)
        } catch let error as UsageError {
            printError("credit: \(error.message)")
            printError("Run `credit \(error.command.map { $0 + " " } ?? "")--help` for how to use it.")
            return CreditCLI.usage
        } catch let error as CommandFailure {
            printError("credit: \(error.message)")
            return CreditCLI.failure
        } catch {
            printError("credit: \(error)")
            return CreditCLI.failure
        }
    }

    private func dispatch(_ command: String, _ args: inout Arguments, _ context: Context) async throws -> Int32 {
        switch command {
        case "screen": return try await screen(&args, context)
        case "balance": return try balance(&args, context)
        case "charge": return try charge(&args, context)
        case "decline": return try decline(&args, context)
        case "topup": return try await topUp(&args, context)
        case "collect": return try await collect(&args, context)
        case "takings": return try takings(&args, context)
        case "entries": return try entries(&args, context)
        case "prices": return try prices(&args, context)
        case "merge": return try merge(&args, context)
        case "run": return try runActs(&args, context)
        case "verify": return try verify(&args, context)
        case "upgrade": return try upgrade(&args, context)
        case "store": return try store(&args, context)
        default: throw UsageError("unknown command \"\(command)\"")
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
