extension CommandSpec {
    /// Reads `arguments` (without the program's name) against this command's declarations: a pure function, so a
    /// test needs no process.
    ///
    /// Options are `--name VALUE` or `--name=VALUE`, before or after positional words; a value may start with one
    /// dash (`-5`, `-` for standard input) but not two. `--` ends the options. `--help` or `-h` anywhere asks for
    /// help and wins over any mistake in the options; a mistake in a command's name does not.
    ///
    /// - Throws: ``UsageError`` for the first mistake, naming the option and the value.
    public func parse(_ arguments: [String]) throws(UsageError) -> ParseOutcome {
        var scanner = ArgumentScanner(root: self)
        scanner.scan(arguments)
        return try scanner.outcome()
    }
}

/// One pass over the words, left to right, keeping the first mistake and going on (so a later `--help` is seen).
private struct ArgumentScanner {
    var chain: [CommandSpec]
    var values: [String: [ParsedArguments.Value]] = [:]
    /// The words at the current command that are not options and not a subcommand's name.
    var words: [String] = []
    var helpRequested = false
    /// `PROGRAM help …`: the words that follow name the command whose help is wanted.
    var helpTopic = false
    var versionRequested = false
    /// The first word that is not an option or its value (a command's name included): `--version` takes none.
    var firstWord: String?
    var firstError: UsageError?

    init(root: CommandSpec) { chain = [root] }

    var current: CommandSpec { chain[chain.count - 1] }

    mutating func scan(_ arguments: [String]) {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if optionsEnded {
                word(token)
            } else if token == "--" {
                optionsEnded = true
            } else if token == "--help" || token == "-h" {
                helpRequested = true
            } else if token == "--version", chain.count == 1, chain[0].version != nil {
                versionRequested = true
            } else if token.hasPrefix("--") {
                option(token, arguments, &index)
            } else if token.hasPrefix("-"), token.count > 1 {
                fail(.unknownOption(token), "unknown option \(token)" + forCommand)
            } else {
                word(token)
            }
        }
    }

    func outcome() throws(UsageError) -> ParseOutcome {
        if helpRequested || helpTopic {
            // Help is shown whatever the options say, but not for a command that does not exist (nor with a word
            // after `help help`).
            if let firstError {
                switch firstError.kind {
                case .unknownCommand, .unexpectedArgument: throw firstError
                default: break
                }
            }
            return .help(chain.names)
        }
        if versionRequested {
            if let extra = firstWord {
                throw UsageError(
                    kind: .unexpectedArgument(extra), message: "unexpected argument \(quoted(extra)) after --version",
                    command: [chain[0].name])
            }
            return .version
        }
        if let firstError { throw firstError }
        var finished = self
        return .run(try finished.finish())
    }

    // MARK: options

    mutating func option(_ token: String, _ arguments: [String], _ index: inout Int) {
        var name = token
        var inline: String?
        if let equals = token.firstIndex(of: "=") {
            name = String(token[..<equals])
            inline = String(token[token.index(after: equals)...])
        }
        guard let spec = chain.visibleOptions.first(where: { $0.name == name }) else {
            fail(.unknownOption(name), "unknown option \(name)" + forCommand)
            return
        }
        if values[name] != nil, !spec.isRepeatable {
            fail(.repeatedOption(name), "\(name) is given more than once")
        }
        guard spec.takesValue else {
            if let inline {
                fail(.unexpectedValue(option: name), "\(name) takes no value, got \(quoted(inline))")
            }
            values[name, default: []].append(.flag)
            return
        }
        let value: String
        if let inline {
            value = inline
        } else {
            guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                fail(.missingValue(option: name), "\(name) needs a value (\(spec.valueName))")
                return
            }
            value = arguments[index]
            index += 1
            if isCommandName(value) {
                fail(
                    .valueIsACommand(option: name, value: value),
                    "\(name) needs a value (\(spec.valueName)), not the command \(quoted(value)); "
                        + "write \(name)=\(value) if that is meant")
                return
            }
        }
        guard let read = read(value, as: spec) else { return }
        values[name, default: []].append(read)
    }

    /// Whether a command could still be named here and `word` names one: then it was not meant as a value.
    func isCommandName(_ word: String) -> Bool {
        guard words.isEmpty, !current.subcommands.isEmpty else { return false }
        return current.subcommand(named: word) != nil || (chain.count == 1 && current.hasHelpCommand && word == "help")
    }

    /// The value as its declaration reads it, or nil after recording why it cannot be.
    mutating func read(_ value: String, as spec: OptionSpec) -> ParsedArguments.Value? {
        let name = spec.name
        if value.isEmpty, !spec.allowsEmpty {
            fail(.emptyValue(option: name), "\(name) needs a value, got an empty one")
            return nil
        }
        switch spec.kind {
        case .flag:
            return .flag
        case .string(let maxBytes):
            if let maxBytes, value.utf8.count > maxBytes {
                fail(
                    .tooLong(option: name, bytes: value.utf8.count, limit: maxBytes),
                    "\(name) \(quoted(value)) is \(value.utf8.count) bytes long; it takes at most \(maxBytes)")
                return nil
            }
            return .string(value)
        case .choice(let choices):
            guard choices.contains(value) else {
                fail(
                    .invalidValue(option: name, value: value),
                    "\(name) \(quoted(value)) is not one of \(choices.joined(separator: ", "))")
                return nil
            }
            return .string(value)
        case .integer(let range, let noun, let allowsGrouping):
            let digits = allowsGrouping ? value.filter { $0 != "," && $0 != "_" } : value
            let allowed = "\(noun)\(HelpFormat.describe(range).map { " " + $0 } ?? "")"
            guard let number = Int64(digits) else {
                // A number with too many digits is out of range too: say so, rather than "not a number".
                let unsigned = digits.hasPrefix("-") ? digits.dropFirst() : Substring(digits)
                let isNumber = !unsigned.isEmpty && unsigned.allSatisfy { $0.isASCII && $0.isNumber }
                fail(
                    isNumber ? .outOfRange(option: name, value: value) : .invalidValue(option: name, value: value),
                    "\(name) \(quoted(value)) is not \(allowed)")
                return nil
            }
            guard range.contains(number) else {
                fail(.outOfRange(option: name, value: value), "\(name) \(quoted(value)) is not \(allowed)")
                return nil
            }
            return .integer(number)
        }
    }

    // MARK: words

    mutating func word(_ token: String) {
        if firstWord == nil { firstWord = token }
        if helpTopic {
            // `PROGRAM help help`: the help of the help command itself.
            if chain.count == 1, current.hasHelpCommand, token == "help", current.subcommand(named: token) == nil {
                chain.append(current.helpCommand)
                return
            }
            // `PROGRAM help help WORD`: the help command's help takes no more words.
            if chain.count == 2, chain[0].hasHelpCommand, current == chain[0].helpCommand {
                fail(.unexpectedArgument(token), "unexpected argument \(quoted(token)) for help help")
                return
            }
            guard let next = current.subcommand(named: token) else {
                fail(.unknownCommand(token), unknownCommandMessage(token))
                return
            }
            chain.append(next)
            return
        }
        if chain.count == 1, current.hasHelpCommand, token == "help", words.isEmpty {
            helpTopic = true
            return
        }
        if !current.subcommands.isEmpty, words.isEmpty {
            if let next = current.subcommand(named: token) {
                chain.append(next)
                return
            }
            if current.positionals.isEmpty {
                fail(.unknownCommand(token), unknownCommandMessage(token))
                return
            }
        }
        words.append(token)
    }

    /// The positional words given their names, the default subcommand taken, and the required parts checked.
    mutating func finish() throws(UsageError) -> ParsedArguments {
        if !current.subcommands.isEmpty, words.isEmpty {
            if let name = current.defaultSubcommand, let next = current.subcommand(named: name) {
                chain.append(next)
            } else if !current.runsWithoutSubcommand {
                throw error(
                    .missingCommand,
                    "\(chain.names.joined(separator: " ")) needs a \(current.subcommandNoun)\(choiceList)")
            }
        }
        var remaining = words[...]
        var positionals: [String: [String]] = [:]
        for spec in current.positionals {
            let taken = spec.isRepeating ? Array(remaining) : Array(remaining.prefix(1))
            remaining = remaining.dropFirst(taken.count)
            guard !taken.isEmpty || spec.isOptional else {
                throw error(
                    .missingArgument(spec.name),
                    "\(current.name) needs \(spec.name)" + (spec.help.isEmpty ? "" : ": \(spec.help)"))
            }
            if let choices = spec.choices, let wrong = taken.first(where: { !choices.contains($0) }) {
                throw error(
                    .invalidValue(option: spec.name, value: wrong),
                    "\(current.name) \(spec.name): \(quoted(wrong)) is not one of \(choices.joined(separator: ", "))")
            }
            if !taken.isEmpty { positionals[spec.name] = taken }
        }
        if let extra = remaining.first {
            throw error(.unexpectedArgument(extra), "unexpected argument \(quoted(extra))" + forCommand)
        }
        if let missing = chain.visibleOptions.first(where: { $0.isRequired && values[$0.name] == nil }) {
            throw error(
                .missingOption(missing.name),
                HelpFormat.trimmingTrailingSpaces("\(current.name) needs \(missing.name) \(missing.valueName)"))
        }
        return ParsedArguments(path: chain.names, options: values, positionals: positionals)
    }

    // MARK: messages

    /// ` for charge`: which command, when it is not the program itself.
    var forCommand: String { chain.count > 1 ? " for \(current.name)" : "" }

    /// `: simulated or mockstore`, when there are few enough to list.
    var choiceList: String {
        let names = current.subcommands.map(\.name)
        guard names.count <= 4, let last = names.last else { return "" }
        if names.count == 1 { return " (the only one is \(last))" }
        return ": " + names.dropLast().joined(separator: ", ") + " or " + last
    }

    func unknownCommandMessage(_ word: String) -> String {
        "unknown \(current.subcommandNoun) \(quoted(word))\(choiceList)"
    }

    func error(_ kind: UsageError.Kind, _ message: String) -> UsageError {
        UsageError(kind: kind, message: message, command: chain.names)
    }

    mutating func fail(_ kind: UsageError.Kind, _ message: String) {
        if firstError == nil { firstError = error(kind, message) }
    }
}
