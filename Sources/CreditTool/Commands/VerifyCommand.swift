import OptionParsing

/// `credit verify [FILE...]`: checks the signed ledger, its heads and its receipts.
struct VerifyCommand: CreditCommand {
    static let files = Argument.list(
        .file, help: "ledger files to check instead of the data directory's", optional: true)

    static let configuration = CommandSpec(
        "verify", summary: "check the signed ledger, its heads and its receipts",
        discussion: """
            Checks every device's chain of MACs, every signed head, that no id is duplicated with other content and
            no (device, sequence) is forked, and that every top-up's stored receipt carries a valid store signature
            for the product and amount it credits. Exit 0 when all holds, 1 when anything is wrong.
            """,
        positionals: [files.spec])

    /// Ledger files to check instead of the data directory's.
    let files: [String]

    var accountUse: AccountUse { .needsAccount(lacking: "there is nothing to verify") }

    init(_ arguments: ParsedArguments) throws(UsageError) { files = try arguments.value(of: Self.files) }

    func run(_ context: Context) throws -> Int32 { try ScreenCommands.verify(files, context) }
}
