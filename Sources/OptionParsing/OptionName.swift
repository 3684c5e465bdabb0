/// An option's name as it is typed, with its dashes (`--data-dir`). A program declares each of its options' names
/// once, as a static constant (`extension OptionName { static let dataDir = OptionName("--data-dir") }`), and both
/// its declarations and its lookups use the constant: a misspelt name is a compile error, never a silent `nil`.
public struct OptionName: Hashable, Sendable, CustomStringConvertible {
    /// The name as typed: `--data-dir`.
    public let text: String

    public init(_ text: String) { self.text = text }

    public var description: String { text }
}

/// A word's name in a command's declaration (`DIR`, `FILE|-`): declared once per program, like ``OptionName``.
public struct PositionalName: Hashable, Sendable, CustomStringConvertible {
    /// The name as help shows it: `FILE|-`.
    public let text: String

    public init(_ text: String) { self.text = text }

    public var description: String { text }
}
