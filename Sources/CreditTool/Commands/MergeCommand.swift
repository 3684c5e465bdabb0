import OptionParsing

/// `credit merge FILE|DIR...`: other devices' ledger files or data directories merged into this one.
struct MergeCommand: CreditCommand {
    static let paths = Argument.list(.fileOrDir, help: "ledger files, or other devices' data directories")

    static let configuration = CommandSpec(
        "merge", summary: "merge other devices' ledger files or data directories into this one",
        discussion: """
            Merges a ledger file, or another device's data directory (its ledger/ and heads/), into this data
            directory: every entry is taken once. A file is taken whole or not at all: every line must verify under
            this account's key (MAC, chain, sequences) and a head given with it must agree. A file of another
            account, a forged line, a forked or gapped chain: exit 1, naming the file, the line and why, and nothing
            is written. A second credit of one store transaction is merged, counted once, and reported (exit 1).
            """,
        positionals: [paths.spec])

    /// Ledger files, or other devices' data directories.
    let paths: [String]

    init(_ arguments: ParsedArguments) throws(UsageError) { paths = try arguments.value(of: Self.paths) }

    func run(_ context: Context) throws -> Int32 { try AccountCommands.merge(paths, context) }
}
