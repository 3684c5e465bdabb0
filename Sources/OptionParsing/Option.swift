/// One option a command declares, with the type its value is read as: the declaration (``spec``), the name it is
/// looked up by and the reading are one value, so a command declares each option once and reads it typed
/// (`let url = try arguments.value(of: Self.url)`), as swift-argument-parser's `@Option` does.
public struct Option<Value: Sendable>: Sendable {
    /// What the parser and `--help` read: the option's name, kind and help.
    public let spec: OptionSpec
    private let reading: @Sendable (ParsedArguments, OptionName) throws(UsageError) -> Value

    private init(
        _ spec: OptionSpec, reading: @escaping @Sendable (ParsedArguments, OptionName) throws(UsageError) -> Value
    ) {
        self.spec = spec
        self.reading = reading
    }

    /// The option's name as typed.
    public var name: OptionName { OptionName(spec.name) }

    /// The value given in `arguments`, as this option reads it.
    func read(_ arguments: ParsedArguments) throws(UsageError) -> Value { try reading(arguments, name) }

    /// The same option, its declaration changed.
    private func with(_ change: (OptionSpec) -> OptionSpec) -> Option {
        Option(change(spec), reading: reading)
    }

    /// Subcommands accept the option too (`--json`, `--data-dir`).
    public func inherited() -> Option { with { $0.inherited() } }
    /// An empty value is taken as given.
    public func allowingEmpty() -> Option { with { $0.allowingEmpty() } }
}

extension Option where Value == Bool {
    /// `--name`: present or not.
    public static func flag(_ name: OptionName, help: String) -> Option {
        Option(.flag(name, help: help)) { arguments, name in arguments.flag(name) }
    }
}

extension Option where Value == String? {
    /// `--name VALUE`: any text (at most `maxBytes` bytes of UTF-8), nil when not given.
    public static func string(_ name: OptionName, _ valueName: String, maxBytes: Int? = nil, help: String) -> Option {
        Option(.string(name, valueName, maxBytes: maxBytes, help: help)) { arguments, name in arguments.string(name) }
    }
}

extension Option where Value == [String] {
    /// `--name VALUE`, any number of times: every value, in the order given.
    public static func strings(_ name: OptionName, _ valueName: String, help: String) -> Option {
        Option(OptionSpec.string(name, valueName, help: help).repeatable()) { arguments, name in
            arguments.strings(name)
        }
    }
}

extension Option where Value == Int64? {
    /// `--name N`: a whole number in `range` (`noun` names it in messages), nil when not given.
    public static func integer(
        _ name: OptionName, _ valueName: String, in range: ClosedRange<Int64> = Int64.min...Int64.max,
        noun: String = "a whole number", allowsGrouping: Bool = false, help: String
    ) -> Option {
        let spec = OptionSpec.integer(
            name, valueName, in: range, noun: noun, allowsGrouping: allowsGrouping, help: help)
        return Option(spec) { arguments, name in arguments.integer(name) }
    }
}

extension Option {
    /// `--name WORD`: one of `Choice`'s words (its raw values, in the order of its cases), read as the case; nil
    /// when not given. Shown as `a|b|c` in help unless `valueName` is given.
    public static func choice<Choice: ChoiceWords>(
        _ name: OptionName, _ type: Choice.Type, valueName: String? = nil, help: String
    ) -> Option where Value == Choice? {
        choice(name, Array(Choice.allCases), word: { $0.rawValue }, valueName: valueName, help: help)
    }

    /// `--name WORD`: one of `choices`, each taken as its `word` (a type's known values: the words help lists, in
    /// this order), read as the value; nil when not given.
    public static func choice<Choice: Sendable>(
        _ name: OptionName, _ choices: [Choice], word: @escaping @Sendable (Choice) -> String,
        valueName: String? = nil, help: String
    ) -> Option where Value == Choice? {
        Option(.choice(name, choices.map(word), valueName: valueName, help: help)) { arguments, name in
            arguments.string(name).flatMap { given in choices.first { word($0) == given } }
        }
    }

    /// The command cannot run without the option: its value is never nil (the parser refuses a command line
    /// without it).
    public func required<Wrapped>() -> Option<Wrapped> where Value == Wrapped? {
        let reading = self.reading
        let valueName = spec.valueName
        return Option<Wrapped>(spec.required()) { arguments, name throws(UsageError) in
            guard let value = try reading(arguments, name) else {
                // The parser says this first; the same words.
                throw UsageError(
                    kind: .missingOption(name.text),
                    message: HelpFormat.trimmingTrailingSpaces("\(arguments.command) needs \(name) \(valueName)"),
                    command: arguments.path)
            }
            return value
        }
    }
}

/// A closed set of words an option or a positional takes (`--days 7|30`, `on|off`): an enum whose raw values are
/// the words, declared in the order help lists them.
public protocol ChoiceWords: CaseIterable, RawRepresentable, Sendable where RawValue == String {}

extension ChoiceWords {
    /// The words, in the order of the cases.
    public static var words: [String] { allCases.map(\.rawValue) }
}
