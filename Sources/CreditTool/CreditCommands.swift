import OptionParsing

/// Every `credit` command: its declaration beside what runs it. The root command's subcommands are these, in this
/// order, so no command is declared without what runs it, and none is run by a name that is not declared.
enum CreditCommands {
    /// What runs one command, given its parsed command line and its data directory.
    typealias Handler = @Sendable (ParsedArguments, Context) async throws -> Int32

    /// One command: its declaration, what runs it (nil for a command that only groups others, as `store use`), and
    /// its subcommands, each with what runs it. The declaration's subcommands are theirs.
    struct Command: Sendable {
        let spec: CommandSpec
        let run: Handler?
        let subcommands: [Command]

        init(spec: CommandSpec, run: Handler?, subcommands: [Command] = []) {
            var spec = spec
            if !subcommands.isEmpty { spec.subcommands = subcommands.map(\.spec) }
            self.spec = spec
            self.run = run
            self.subcommands = subcommands
        }

        /// The command `path` names below this one (this one for an empty path), if one is declared.
        func command(at path: ArraySlice<String>) -> Command? {
            guard let word = path.first else { return self }
            return subcommands.first { $0.spec.name == word }?.command(at: path.dropFirst())
        }
    }

    static let all: [Command] = [
        Command(spec: CreditCommandLine.screen, run: ScreenCommands.screen),
        Command(spec: CreditCommandLine.balance, run: LedgerCommands.balance),
        Command(spec: CreditCommandLine.charge, run: LedgerCommands.charge),
        Command(spec: CreditCommandLine.decline, run: LedgerCommands.decline),
        Command(spec: CreditCommandLine.topUp, run: StoreCommands.topUp),
        Command(spec: CreditCommandLine.collect, run: StoreCommands.collect),
        Command(spec: CreditCommandLine.reconcile, run: ReconcileCommand.reconcile),
        Command(spec: CreditCommandLine.takings, run: LedgerCommands.takings),
        Command(spec: CreditCommandLine.entries, run: LedgerCommands.entries),
        Command(spec: CreditCommandLine.prices, run: LedgerCommands.prices),
        Command(spec: CreditCommandLine.merge, run: AccountCommands.merge),
        Command(spec: CreditCommandLine.join, run: AccountCommands.join),
        Command(spec: CreditCommandLine.devices, run: AccountCommands.devices),
        Command(spec: CreditCommandLine.sync, run: SyncCommand.sync),
        Command(spec: CreditCommandLine.run, run: LedgerCommands.runActs),
        Command(spec: CreditCommandLine.verify, run: ScreenCommands.verify),
        Command(spec: CreditCommandLine.upgrade, run: ScreenCommands.upgrade),
        Command(
            spec: CreditCommandLine.store, run: StoreCommands.show,
            subcommands: [
                Command(
                    spec: CreditCommandLine.storeUse, run: nil,
                    subcommands: [
                        Command(spec: CreditCommandLine.useSimulated, run: StoreCommands.useSimulated),
                        Command(spec: CreditCommandLine.useMockStore, run: StoreCommands.useMockStore),
                    ])
            ]),
        Command(spec: CreditCommandLine.pnl, run: CreditCLI.pnl),
        Command(spec: CreditCommandLine.report, run: CreditCLI.writeReport),
        Command(spec: CreditCommandLine.export, run: CreditCLI.exportSummary),
    ]

    /// The command declared at `path` (`["store", "use", "simulated"]`), if any.
    static func command(at path: ArraySlice<String>) -> Command? {
        guard let word = path.first else { return nil }
        return all.first { $0.spec.name == word }?.command(at: path.dropFirst())
    }
}
