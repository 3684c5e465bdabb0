/// A command as it declares itself: its options, positional words, subcommands and the words of its `--help`.
///
/// Parsing (``parse(_:)``) and help (``helpText(for:)``) are both read from this declaration, so what `--help` says
/// is what the parser takes. Modelled on swift-argument-parser's `CommandConfiguration`, without its property
/// wrappers: a command reads its values from the ``ParsedArguments`` by option name.
public struct CommandSpec: Sendable, Equatable {
    /// The word that selects it (`charge`), or the program's name for the root (`credit`).
    public var name: String
    /// One line: shown beside the name in the parent's list of commands, and atop the root's help.
    public var summary: String
    /// Paragraphs shown after the usage line.
    public var discussion: String
    public var options: [OptionSpec]
    public var positionals: [PositionalSpec]
    public var subcommands: [CommandSpec]
    /// The subcommand run when none is named (`screen` for `credit`).
    public var defaultSubcommand: String?
    /// The command does something of its own when no subcommand is named (`credit store` shows the store).
    public var runsWithoutSubcommand: Bool
    /// What a subcommand is called in messages: `unknown control command "explode"`.
    public var subcommandNoun: String
    /// `PROGRAM help [COMMAND...]` shows a command's help (the root only).
    public var hasHelpCommand: Bool
    /// The usage shows a line for every subcommand (`credit store use simulated`, `credit store use mockstore …`).
    public var usageListsSubcommands: Bool
    /// The list of commands shows each one's options too, not only its positional words.
    public var commandListShowsOptions: Bool
    /// Usage lines the declarations cannot say (another mode of the program), shown after the generated ones.
    public var additionalUsage: [String]
    /// Text after the options: exit statuses, endpoints.
    public var epilogue: String
    /// When set, `--version` at the root prints this.
    public var version: String?

    public init(
        _ name: String, summary: String = "", discussion: String = "", options: [OptionSpec] = [],
        positionals: [PositionalSpec] = [], subcommands: [CommandSpec] = [], defaultSubcommand: String? = nil,
        runsWithoutSubcommand: Bool = false, subcommandNoun: String = "command", hasHelpCommand: Bool = false,
        usageListsSubcommands: Bool = false, commandListShowsOptions: Bool = false, additionalUsage: [String] = [],
        epilogue: String = "", version: String? = nil
    ) {
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.options = options
        self.positionals = positionals
        self.subcommands = subcommands
        self.defaultSubcommand = defaultSubcommand
        self.runsWithoutSubcommand = runsWithoutSubcommand
        self.subcommandNoun = subcommandNoun
        self.hasHelpCommand = hasHelpCommand
        self.usageListsSubcommands = usageListsSubcommands
        self.commandListShowsOptions = commandListShowsOptions
        self.additionalUsage = additionalUsage
        self.epilogue = epilogue
        self.version = version
    }

    /// The subcommand selected by `word`.
    public func subcommand(named word: String) -> CommandSpec? { subcommands.first { $0.name == word } }

    /// The commands from this one down `path` (whose first name is this command's), or nil when a name is unknown.
    /// `[PROGRAM, "help"]` is the ``helpCommand`` of a root that has one.
    public func chain(to path: [String]) -> [CommandSpec]? {
        guard path.first == name else { return nil }
        var chain = [self]
        for word in path.dropFirst() {
            let last = chain[chain.count - 1]
            if chain.count == 1, last.hasHelpCommand, word == "help", last.subcommand(named: word) == nil {
                chain.append(last.helpCommand)
                continue
            }
            guard let next = last.subcommand(named: word) else { return nil }
            chain.append(next)
        }
        return chain
    }

    /// `PROGRAM help [COMMAND]`, as a root with ``hasHelpCommand`` takes it: declared here so that its own help
    /// (`PROGRAM help help`) is the same as every other command's.
    public var helpCommand: CommandSpec {
        CommandSpec(
            "help", summary: "the help of a command",
            discussion: "Shows the help of COMMAND, the same as `\(name) COMMAND --help` (a command below another "
                + "is named after it: `\(name) help COMMAND SUBCOMMAND`), or of \(name) itself without one.",
            positionals: [
                PositionalSpec(PositionalName("COMMAND"), help: "the command whose help to show", optional: true)
            ])
    }
}

extension [CommandSpec] {
    /// The options the last command of this chain accepts: its own, then those its ancestors pass down.
    var visibleOptions: [OptionSpec] {
        guard let last else { return [] }
        return last.options + dropLast().reversed().flatMap { $0.options.filter(\.isInherited) }
    }

    var names: [String] { map(\.name) }
}
