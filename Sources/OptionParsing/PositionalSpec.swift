/// A word a command takes by position: `KEY` in `credit charge KEY`, `FILE...` in `credit merge FILE...`.
public struct PositionalSpec: Sendable, Equatable {
    /// What it is called in help and messages: `KEY`, `FILE|-`.
    public var name: String
    /// What it is, for `--help` and for the message when it is missing.
    public var help: String
    /// The command runs without it.
    public var isOptional: Bool
    /// Takes every remaining word (only the last positional may).
    public var isRepeating: Bool
    /// When set, the word must be one of these.
    public var choices: [String]?

    public init(
        _ name: PositionalName, help: String = "", optional: Bool = false, repeating: Bool = false,
        choices: [String]? = nil
    ) {
        self.name = name.text
        self.help = help
        self.isOptional = optional
        self.isRepeating = repeating
        self.choices = choices
    }

    /// As the synopsis shows it: `KEY`, `[API]`, `FILE...`, `[FILE...]`.
    var synopsis: String {
        let word = name + (isRepeating ? "..." : "")
        return isOptional ? "[\(word)]" : word
    }
}
