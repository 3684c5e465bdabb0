import SafeText

/// A command line that cannot run: which option or word is wrong, with the value and what is allowed. A program
/// prints ``message`` and exits 64 (`EX_USAGE`).
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, for a program or a test to tell mistakes apart without reading the message.
    public enum Kind: Equatable, Sendable {
        /// An option the command does not declare (or a lone `-x`).
        case unknownOption(String)
        /// An option that is not repeatable, given twice.
        case repeatedOption(String)
        /// An option that takes a value, given without one (at the end, or before another option).
        case missingValue(option: String)
        /// `--name=` or `--name ""` where an empty value means nothing.
        case emptyValue(option: String)
        /// A flag given a value (`--json=yes`).
        case unexpectedValue(option: String)
        /// A value that is not of the option's kind, or not one of its words.
        case invalidValue(option: String, value: String)
        /// A whole number outside the option's range.
        case outOfRange(option: String, value: String)
        /// A value longer than the option takes.
        case tooLong(option: String, bytes: Int, limit: Int)
        /// A value that is a command's name, where a command can still be named (`credit --data-dir balance`).
        case valueIsACommand(option: String, value: String)
        /// A required option that is not given.
        case missingOption(String)
        /// A word where a subcommand is expected that names none.
        case unknownCommand(String)
        /// A command that needs a subcommand, given none.
        case missingCommand
        /// A positional word that is not given.
        case missingArgument(String)
        /// A word the command does not take.
        case unexpectedArgument(String)
        /// A mistake the program found after parsing (a URL that is not one, two options that exclude each other).
        case other
    }

    public var kind: Kind
    /// One sentence naming the option and the value.
    public var message: String
    /// The command the mistake was made in, from the program's name down (`["credit", "charge"]`), for
    /// "Run `credit charge --help`". Empty when not known.
    public var command: [String]

    /// A mistake the program found itself.
    public init(_ message: String, command: [String] = []) {
        self.init(kind: .other, message: message, command: command)
    }

    public init(kind: Kind, message: String, command: [String]) {
        self.kind = kind
        self.message = message
        self.command = command
    }

    /// `OPTION "VALUE" is not ALLOWED`, the shape of every bad value: for a check the declarations cannot make.
    public static func invalidValue(
        _ option: String, _ value: String, isNot allowed: String, command: [String] = []
    ) -> UsageError {
        UsageError(
            kind: .invalidValue(option: option, value: value),
            message: "\(option) \(quoted(value)) is not \(allowed)", command: command)
    }

    public var description: String { message }
}

/// A value as messages show it: in double quotes, control characters escaped (so nothing typed is drawn on the
/// terminal), cut after 60 characters.
public func quoted(_ value: String) -> String {
    var shown = ""
    var count = 0
    for scalar in value.unicodeScalars {
        if count == 60 {
            shown += "…"
            break
        }
        count += 1
        switch scalar {
        case "\"": shown += "\\\""
        case "\\": shown += "\\\\"
        case "\n": shown += "\\n"
        case "\t": shown += "\\t"
        case _ where isDrawnAsControl(scalar):
            // As its code, the form every output of the project shows such a character in.
            shown += HiddenCharacter.code(of: scalar)
        default: shown.unicodeScalars.append(scalar)
        }
    }
    return "\"" + shown + "\""
}

/// C0, DEL, C1 and the bidirectional overrides and isolates: characters that change how a terminal draws the rest.
func isDrawnAsControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
}
