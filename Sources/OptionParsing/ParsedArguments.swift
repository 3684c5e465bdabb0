/// What a command line said, checked against the declarations: the command chosen, each option's values (already
/// of their declared kind) and the positional words by name.
public struct ParsedArguments: Equatable, Sendable {
    /// A value as its declaration reads it.
    public enum Value: Equatable, Sendable {
        case flag
        case string(String)
        case integer(Int64)
    }

    /// The command chosen, from the program's name down: `["credit", "store", "use", "mockstore"]`.
    public var path: [String]
    /// Every option given, by name, its values in the order given.
    public var options: [String: [Value]]
    /// Every positional word, by its declared name.
    public var positionals: [String: [String]]

    public init(path: [String], options: [String: [Value]] = [:], positionals: [String: [String]] = [:]) {
        self.path = path
        self.options = options
        self.positionals = positionals
    }

    /// The name of the command chosen (the last of ``path``).
    public var command: String { path.last ?? "" }

    /// Whether the flag (or any option of that name) was given.
    public func flag(_ name: OptionName) -> Bool { options[name.text] != nil }

    /// The option's value (the last, for a repeatable one), if given: a string or a choice.
    public func string(_ name: OptionName) -> String? { strings(name).last }

    /// Every value of a repeatable option, in the order given.
    public func strings(_ name: OptionName) -> [String] {
        (options[name.text] ?? []).compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    /// The option's whole number, if given: already inside its declared range.
    public func integer(_ name: OptionName) -> Int64? {
        (options[name.text] ?? []).compactMap { if case .integer(let number) = $0 { number } else { nil } }.last
    }

    /// The positional word of that name, if given.
    public func positional(_ name: PositionalName) -> String? { positionals[name.text]?.first }

    /// Every word a repeating positional took.
    public func positionalList(_ name: PositionalName) -> [String] { positionals[name.text] ?? [] }
}

/// What a command line asks for.
public enum ParseOutcome: Equatable, Sendable {
    /// Run the command.
    case run(ParsedArguments)
    /// Show the help of the command at this path (`--help`, `-h`, or `PROGRAM help COMMAND`): exit 0.
    case help([String])
    /// Show the version (`--version`, when the root declares one): exit 0.
    case version
}
