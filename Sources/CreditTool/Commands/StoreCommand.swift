import OptionParsing

/// `credit store`: shows the store top-ups go through; `credit store use …` chooses it.
struct StoreCommand: CreditCommand {
    static let configuration = CommandSpec(
        "store", summary: "show or choose the store (simulated, or the mock store)",
        discussion: """
            Shows or chooses the store top-ups go through. The choice is kept in the data directory.
            The mock store needs exactly one of --root-certificate, which pins its test root (DER or PEM) for ES256
            receipts, and --secret-file, which holds the shared secret for HS256 receipts. Its receipts must come
            from one environment, Sandbox unless --environment says production: any other is never credited.
            """,
        runsWithoutSubcommand: true, subcommandNoun: "store command", usageListsSubcommands: true)

    /// `credit store use`: groups the stores (``UseSimulatedCommand``, ``UseMockStoreCommand``).
    static let use = CommandSpec("use", summary: "choose the store", subcommandNoun: "store")

    init(_ arguments: ParsedArguments) {}

    func run(_ context: Context) throws -> Int32 { try StoreCommands.show(context) }
}
