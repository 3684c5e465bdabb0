import OptionParsing

/// Every `credit` command: the tree of their types. The root command's subcommands are these, in this order, so no
/// command is declared without what runs it, and none is run by a name that is not declared.
enum CreditCommands {
    /// One command of the tree: its declaration, its type (nil for a command that only groups others, as
    /// `store use`), and its subcommands. The declaration's subcommands are theirs.
    struct Command: Sendable {
        let spec: CommandSpec
        let type: (any CreditCommand.Type)?
        let subcommands: [Command]

        /// The command `type`, and the commands below it.
        init(_ type: any CreditCommand.Type, subcommands: [Command] = []) {
            self.init(spec: type.configuration, type: type, subcommands: subcommands)
        }

        /// A command that only groups `subcommands`.
        init(group spec: CommandSpec, subcommands: [Command]) {
            self.init(spec: spec, type: nil, subcommands: subcommands)
        }

        private init(spec: CommandSpec, type: (any CreditCommand.Type)?, subcommands: [Command]) {
            var spec = spec
            if !subcommands.isEmpty { spec.subcommands = subcommands.map(\.spec) }
            self.spec = spec
            self.type = type
            self.subcommands = subcommands
        }

        /// The command `path` names below this one (this one for an empty path), if one is declared.
        func command(at path: ArraySlice<String>) -> Command? {
            guard let word = path.first else { return self }
            return subcommands.first { $0.spec.name == word }?.command(at: path.dropFirst())
        }
    }

    static let all: [Command] = [
        Command(ScreenCommand.self), Command(BalanceCommand.self), Command(ChargeCommand.self),
        Command(DeclineCommand.self), Command(TopUpCommand.self), Command(CollectCommand.self),
        Command(ReconcileCommand.self), Command(TakingsCommand.self), Command(EntriesCommand.self),
        Command(PricesCommand.self), Command(MergeCommand.self), Command(JoinCommand.self),
        Command(DevicesCommand.self), Command(SyncCommand.self), Command(RunCommand.self),
        Command(VerifyCommand.self), Command(UpgradeCommand.self),
        Command(
            StoreCommand.self,
            subcommands: [
                Command(
                    group: StoreCommand.use,
                    subcommands: [Command(UseSimulatedCommand.self), Command(UseMockStoreCommand.self)])
            ]),
        Command(PnLCommand.self), Command(ReportCommand.self), Command(ExportCommand.self),
    ]

    /// The command declared at `path` (`["store", "use", "simulated"]`), if any.
    static func command(at path: ArraySlice<String>) -> Command? {
        guard let word = path.first else { return nil }
        return all.first { $0.spec.name == word }?.command(at: path.dropFirst())
    }

    /// The command `arguments` chose (`arguments.path` is `["credit", COMMAND, …]`), its values read; nil for a
    /// path that names no command that runs.
    static func command(for arguments: ParsedArguments) throws(UsageError) -> (any CreditCommand)? {
        guard let type = command(at: arguments.path.dropFirst())?.type else { return nil }
        return try type.init(arguments)
    }
}
