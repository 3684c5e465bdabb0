extension CommandSpec {
    /// The `--help` of this command (the root) or of one of its subcommands, from the declarations: usage lines,
    /// the discussion, the arguments, the subcommands, every option the command takes (ranges included), and the
    /// epilogue. `path` starts with this command's name, as ``ParsedArguments/path`` does.
    public func helpText(for path: [String]) -> String {
        guard let chain = chain(to: path) else { return helpText(for: [name]) }
        let command = chain[chain.count - 1]
        var sections: [String] = []
        if chain.count == 1, !summary.isEmpty { sections.append("\(name): \(summary)") }
        sections.append(Self.usage(chain))
        if !command.discussion.isEmpty { sections.append(command.discussion) }
        let arguments = command.positionals.filter { !$0.help.isEmpty }.map { ($0.synopsis, $0.help) }
        if !arguments.isEmpty { sections.append("Arguments:\n" + HelpFormat.columns(arguments)) }
        if !command.subcommands.isEmpty { sections.append("Commands:\n" + HelpFormat.columns(commandRows(command))) }
        sections.append("Options:\n" + HelpFormat.columns(optionRows(chain)))
        if !command.epilogue.isEmpty { sections.append(command.epilogue) }
        return sections.joined(separator: "\n\n")
    }

    /// The help of the root command.
    public var helpText: String { helpText(for: [name]) }

    private static func usage(_ chain: [CommandSpec]) -> String {
        let command = chain[chain.count - 1]
        var lines = [synopsis(chain, prefix: "Usage: ", inherited: true)]
        if command.usageListsSubcommands {
            for leaf in leaves(of: command) {
                lines.append(synopsis(chain + leaf, prefix: "       ", inherited: false))
            }
        }
        lines += command.additionalUsage.map { "       " + $0 }
        return lines.joined(separator: "\n")
    }

    /// Every chain from `command` down to a command that runs (one with no subcommands, or that runs alone).
    private static func leaves(of command: CommandSpec) -> [[CommandSpec]] {
        command.subcommands.flatMap { sub -> [[CommandSpec]] in
            let below = leaves(of: sub).map { [sub] + $0 }
            return sub.subcommands.isEmpty || sub.runsWithoutSubcommand ? [[sub]] + below : below
        }
    }

    private static func synopsis(_ chain: [CommandSpec], prefix: String, inherited: Bool) -> String {
        let command = chain[chain.count - 1]
        let path = chain.names.joined(separator: " ")
        let options = inherited ? chain.visibleOptions : command.options
        var items = [path] + command.positionals.map(\.synopsis) + options.map(optionSynopsis)
        if !command.subcommands.isEmpty, !command.usageListsSubcommands {
            let runsAlone = command.runsWithoutSubcommand || command.defaultSubcommand != nil
            items += [runsAlone ? "[COMMAND]" : "COMMAND", "[ARGUMENTS]"]
        }
        return HelpFormat.synopsis(items, prefix: prefix, indent: prefix.count + path.count + 1)
    }

    private static func optionSynopsis(_ option: OptionSpec) -> String {
        let word = option.takesValue ? "\(option.name) \(option.valueName)" : option.name
        if option.isRequired { return word }
        return "[\(word)]" + (option.isRepeatable ? "..." : "")
    }

    private func commandRows(_ command: CommandSpec) -> [(String, String)] {
        var rows = command.subcommands.map { sub -> (String, String) in
            var items = [sub.name] + sub.positionals.map(\.synopsis)
            if command.commandListShowsOptions { items += sub.options.map(Self.optionSynopsis) }
            if !sub.subcommands.isEmpty { items.append("...") }
            return (items.joined(separator: " "), sub.summary)
        }
        if command.hasHelpCommand { rows.append(("help [COMMAND]", "the help of a command")) }
        return rows
    }

    private func optionRows(_ chain: [CommandSpec]) -> [(String, String)] {
        var rows = chain.visibleOptions.map { option -> (String, String) in
            var text = option.help
            if case .integer(let range, _, _) = option.kind, let note = HelpFormat.helpNote(range) {
                // Inside the help's own closing parenthesis, if it ends with one: "(default 0; 0 to 65,535)".
                text = text.hasSuffix(")") ? text.dropLast() + "; \(note))" : text + " (\(note))"
            }
            return (option.takesValue ? "\(option.name) \(option.valueName)" : option.name, text)
        }
        rows.append(("-h, --help", "show this help"))
        if chain.count == 1, version != nil { rows.append(("--version", "show the version")) }
        return rows
    }
}
