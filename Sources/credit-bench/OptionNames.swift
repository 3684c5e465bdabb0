import OptionParsing

/// The options this program declares, by name: each spelt once, here, so a misspelt one does not compile.
extension OptionName {
    static let accounts = OptionName("--accounts")
    static let catalogue = OptionName("--catalogue")
    static let entries = OptionName("--entries")
    static let keep = OptionName("--keep")
    static let loadOnly = OptionName("--load-only")
    static let only = OptionName("--only")
    static let pipelineOnly = OptionName("--pipeline-only")
    static let quick = OptionName("--quick")
    static let verifyOnly = OptionName("--verify-only")
    static let work = OptionName("--work")
}
