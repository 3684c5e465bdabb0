import OptionParsing

/// The options this program declares, by name: each spelt once, here, so a misspelt one does not compile.
extension OptionName {
}

/// The words this program takes by position, by name: each spelt once, here.
extension PositionalName {
    static let dir = PositionalName("DIR")
}
