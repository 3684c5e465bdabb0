import Foundation
import Platform

/// What one run of `credit` reads and writes besides its files: its words, its environment, its standard input and
/// whether its output is a terminal. Task-local, so commands run side by side in one process (a test suite's) each
/// keep their own.
struct Console: Sendable {
    var output: CommandOutput
    var errors: CommandOutput
    var environment: [String: String]
    var input: CommandInput
    /// Whether standard output is a terminal (colour is drawn only there).
    var outputIsTerminal: Bool
    /// The data directory the caller chose, used when the command line names none.
    var dataDirectory: String?

    /// The process's own: standard output and error, its environment, its standard input.
    static var process: Console {
        Console(
            output: .standardOutput, errors: .standardError, environment: ProcessInfo.processInfo.environment,
            input: .standardInput, outputIsTerminal: isatty(STDOUT_FILENO) == 1, dataDirectory: nil)
    }

    @TaskLocal static var current = Console.process
}

/// Writes `items` to the command's standard output, as Swift's `print` does: in this module it stands in for it, so
/// no command writes to the process's own output behind its caller's back.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Console.current.output.write(items.map { "\($0)" }.joined(separator: separator) + terminator)
}

/// Writes one line to the command's standard error.
func printError(_ text: String) {
    Console.current.errors.write(text + "\n")
}
