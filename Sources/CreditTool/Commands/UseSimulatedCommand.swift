import OptionParsing

/// `credit store use simulated`: top-ups through the simulated store, no money taken.
struct UseSimulatedCommand: CreditCommand {
    static let configuration = CommandSpec("simulated", summary: "the simulated store: no money is taken")

    init(_ arguments: ParsedArguments) {}

    func run(_ context: Context) throws -> Int32 { try StoreCommands.useSimulated(context) }
}
