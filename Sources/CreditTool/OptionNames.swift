import OptionParsing

/// The options this program declares, by name: each spelt once, here, so a misspelt one does not compile.
extension OptionName {
    static let apiKey = OptionName("--api-key")
    static let autoOpen = OptionName("--auto-open")
    static let bundleId = OptionName("--bundle-id")
    static let dataDir = OptionName("--data-dir")
    static let days = OptionName("--days")
    static let environment = OptionName("--environment")
    static let fix = OptionName("--fix")
    static let interval = OptionName("--interval")
    static let issuer = OptionName("--issuer")
    static let json = OptionName("--json")
    static let out = OptionName("--out")
    static let product = OptionName("--product")
    static let quantity = OptionName("--quantity")
    static let reason = OptionName("--reason")
    static let rootCertificate = OptionName("--root-certificate")
    static let seconds = OptionName("--seconds")
    static let secretFile = OptionName("--secret-file")
    static let subject = OptionName("--subject")
    static let summaries = OptionName("--summaries")
    static let summary = OptionName("--summary")
    static let text = OptionName("--text")
    static let transaction = OptionName("--transaction")
    static let url = OptionName("--url")
    static let watch = OptionName("--watch")
    static let recoverRestored = OptionName("--recover-restored")
}

/// The words this program takes by position, by name: each spelt once, here.
extension PositionalName {
    static let dir = PositionalName("DIR")
    static let entryId = PositionalName("ENTRY-ID")
    static let file = PositionalName("FILE")
    static let fileOrStdin = PositionalName("FILE|-")
    static let fileOrDir = PositionalName("FILE|DIR")
    static let key = PositionalName("KEY")
}
