/// One option a command declares: its name, the kind of value it takes, and how often it may be given.
///
/// Made with the static factories and refined with the modifiers, so a declaration reads as a sentence:
/// `.integer("--seconds", "S", in: 1...360_000, help: "length of the audio").required()`.
public struct OptionSpec: Sendable, Equatable {
    /// What an option's value must be.
    public enum Kind: Sendable, Equatable {
        /// No value: present or not.
        case flag
        /// Any text, at most `maxBytes` bytes of UTF-8 when given.
        case string(maxBytes: Int?)
        /// A whole number in `range`; `noun` says what it is in messages ("a port number"). With `allowsGrouping`,
        /// `1,000,000` and `1_000_000` are read as `1000000`.
        case integer(range: ClosedRange<Int64>, noun: String, allowsGrouping: Bool)
        /// One of these words.
        case choice([String])
    }

    /// The option as it is typed, with its dashes: `--seconds`.
    public var name: String
    /// What the value is called in help: `S` in `--seconds S`. Empty for a flag.
    public var valueName: String
    public var kind: Kind
    /// One line (or a few) for `--help`.
    public var help: String
    /// May be given more than once; every value is kept in order.
    public private(set) var isRepeatable = false
    /// The command cannot run without it.
    public private(set) var isRequired = false
    /// Also accepted by every subcommand, before or after its name (`--json`, `--data-dir`).
    public private(set) var isInherited = false
    /// An empty value (`--name=` or `--name ""`) is taken; otherwise it is a usage error.
    public private(set) var allowsEmpty = false

    /// `--name`: present or not.
    public static func flag(_ name: OptionName, help: String) -> OptionSpec {
        OptionSpec(name: name.text, valueName: "", kind: .flag, help: help)
    }

    /// `--name VALUE`: any text (at most `maxBytes` bytes of UTF-8).
    public static func string(_ name: OptionName, _ valueName: String, maxBytes: Int? = nil, help: String)
        -> OptionSpec
    {
        OptionSpec(name: name.text, valueName: valueName, kind: .string(maxBytes: maxBytes), help: help)
    }

    /// `--name N`: a whole number in `range`; `noun` names it in messages.
    public static func integer(
        _ name: OptionName, _ valueName: String, in range: ClosedRange<Int64> = Int64.min...Int64.max,
        noun: String = "a whole number", allowsGrouping: Bool = false, help: String
    ) -> OptionSpec {
        OptionSpec(
            name: name.text, valueName: valueName,
            kind: .integer(range: range, noun: noun, allowsGrouping: allowsGrouping),
            help: help)
    }

    /// `--name WORD`: one of `choices`. The value is shown as `a|b|c` in help unless `valueName` is given.
    public static func choice(_ name: OptionName, _ choices: [String], valueName: String? = nil, help: String)
        -> OptionSpec
    {
        OptionSpec(
            name: name.text, valueName: valueName ?? choices.joined(separator: "|"), kind: .choice(choices), help: help)
    }

    /// The option may be given more than once.
    public func repeatable() -> OptionSpec { with { $0.isRepeatable = true } }
    /// The command cannot run without the option.
    public func required() -> OptionSpec { with { $0.isRequired = true } }
    /// Subcommands accept the option too.
    public func inherited() -> OptionSpec { with { $0.isInherited = true } }
    /// An empty value is taken as given.
    public func allowingEmpty() -> OptionSpec { with { $0.allowsEmpty = true } }

    var takesValue: Bool { kind != .flag }

    private func with(_ change: (inout OptionSpec) -> Void) -> OptionSpec {
        var copy = self
        change(&copy)
        return copy
    }
}
