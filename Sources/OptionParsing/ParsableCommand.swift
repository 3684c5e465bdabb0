/// A command as a type, shaped like swift-argument-parser's `ParsableCommand`: its declaration
/// (``configuration``), its values as typed properties read from a parsed command line (``init(_:)``), and the
/// checks its declarations cannot make (``validate()``). What it does with them (its `run`) is the program's: each
/// program refines this protocol with the `run` its commands share.
public protocol ParsableCommand: Sendable {
    /// The command's name, help, options and words: what the parser and `--help` read.
    static var configuration: CommandSpec { get }

    /// The command's values from `arguments`, already checked against ``configuration`` by the parser.
    init(_ arguments: ParsedArguments) throws(UsageError)

    /// Checks what the declarations cannot (two options that exclude each other, a URL that is not one): a mistake
    /// is a ``UsageError`` (exit 64).
    func validate() throws(UsageError)
}

extension ParsableCommand {
    public func validate() throws(UsageError) {}

    /// The command `arguments` describe, read and validated. A mistake found by ``validate()`` that names no
    /// command is said for this one (`arguments.path`), for its "Run `… --help`".
    public static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Self {
        do {
            let command = try Self(arguments)
            try command.validate()
            return command
        } catch {
            var error = error
            if error.command.isEmpty { error.command = arguments.path }
            throw error
        }
    }
}
