/// One word a command takes by position, with the type it is read as: the declaration (``spec``) and the reading
/// are one value, as swift-argument-parser's `@Argument` is.
public struct Argument<Value: Sendable>: Sendable {
    /// What the parser and `--help` read.
    public let spec: PositionalSpec
    private let reading: @Sendable (ParsedArguments, PositionalSpec) throws(UsageError) -> Value

    private init(
        _ spec: PositionalSpec,
        reading: @escaping @Sendable (ParsedArguments, PositionalSpec) throws(UsageError) -> Value
    ) {
        self.spec = spec
        self.reading = reading
    }

    /// The word's name as help shows it.
    public var name: PositionalName { PositionalName(spec.name) }

    /// The word given in `arguments`, as this declaration reads it.
    func read(_ arguments: ParsedArguments) throws(UsageError) -> Value { try reading(arguments, spec) }
}

extension Argument where Value == String {
    /// A word the command needs (the parser refuses a command line without it).
    public static func word(_ name: PositionalName, help: String = "") -> Argument {
        Argument(PositionalSpec(name, help: help)) { arguments, _ in arguments.positional(name) ?? "" }
    }
}

extension Argument where Value == String? {
    /// A word the command runs without: nil when not given.
    public static func optional(_ name: PositionalName, help: String = "") -> Argument {
        Argument(PositionalSpec(name, help: help, optional: true)) { arguments, _ in arguments.positional(name) }
    }
}

extension Argument where Value == [String] {
    /// Every remaining word (only the last positional may take them); `optional`: none at all is taken too.
    public static func list(_ name: PositionalName, help: String = "", optional: Bool = false) -> Argument {
        Argument(PositionalSpec(name, help: help, optional: optional, repeating: true)) { arguments, _ in
            arguments.positionalList(name)
        }
    }
}

extension Argument where Value: ChoiceWords {
    /// One of `Value`'s words, read as its case (the parser refuses any other word, and a command line without
    /// one).
    public static func choice(_ name: PositionalName, _ type: Value.Type, help: String = "") -> Argument {
        Argument(PositionalSpec(name, help: help, choices: Value.words)) { arguments, spec throws(UsageError) in
            guard let choice = arguments.positional(name).flatMap(Value.init(rawValue:)) else {
                // The parser says this first; the same words.
                throw UsageError(
                    kind: .missingArgument(spec.name), message: "\(arguments.command) needs \(spec.name)",
                    command: arguments.path)
            }
            return choice
        }
    }
}

extension Argument {
    /// One of `Choice`'s words or none, read as its case.
    public static func optionalChoice<Choice: ChoiceWords>(
        _ name: PositionalName, _ type: Choice.Type, help: String = ""
    ) -> Argument where Value == Choice? {
        Argument(PositionalSpec(name, help: help, optional: true, choices: Choice.words)) { arguments, _ in
            arguments.positional(name).flatMap(Choice.init(rawValue:))
        }
    }
}
