import OptionParsing

/// `credit screen` (the default command): the credit screen.
struct ScreenCommand: CreditCommand {
    static let configuration = CommandSpec(
        "screen", summary: "the credit screen (the default when no command is given)",
        discussion: """
            The credit screen: the balance, what was used and topped up, the top-up on offer, takings by feature,
            every entry newest first with the balance after it, and the price list. Opening it first collects any
            purchase the store holds unfinished.
            """)

    var accountUse: AccountUse { .reads }

    init(_ arguments: ParsedArguments) {}

    func run(_ context: Context) async throws -> Int32 { try await ScreenCommands.screen(context) }
}
