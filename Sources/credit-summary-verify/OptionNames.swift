import OptionParsing

/// The words this program takes by position, by name: each spelt once, here.
extension PositionalName {
    static let dir = PositionalName("DIR")
}

/// The options this program declares, by name.
extension OptionName {
    static let joined = OptionName("--joined")
}
