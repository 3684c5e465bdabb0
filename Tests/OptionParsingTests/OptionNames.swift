import OptionParsing

/// The options this program declares, by name: each spelt once, here, so a misspelt one does not compile.
extension OptionName {
    static let autoOpen = OptionName("--auto-open")
    static let dataDir = OptionName("--data-dir")
    static let entries = OptionName("--entries")
    static let json = OptionName("--json")
    static let key = OptionName("--key")
    static let nothing = OptionName("--nothing")
    static let quantity = OptionName("--quantity")
    static let reason = OptionName("--reason")
    static let seconds = OptionName("--seconds")
    static let subject = OptionName("--subject")
    static let text = OptionName("--text")
    static let url = OptionName("--url")
    static let veryLongOptionNameIndeed = OptionName("--very-long-option-name-indeed")
}

/// The words this program takes by position, by name: each spelt once, here.
extension PositionalName {
    static let entryId = PositionalName("ENTRY-ID")
    static let file = PositionalName("FILE")
    static let key = PositionalName("KEY")
    static let onOrOff = PositionalName("on|off")
}
