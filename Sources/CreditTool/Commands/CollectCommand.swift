import OptionParsing

/// `credit collect`: purchases the store holds unfinished, and updates.
struct CollectCommand: CreditCommand {
    static let configuration = CommandSpec(
        "collect", summary: "collect purchases the store holds unfinished, and updates",
        discussion: """
            Collects what the store holds for this app: unfinished purchases (verified, recorded once, finished),
            and updates made outside a purchase (an approved Ask to Buy, a refund). Also done whenever the credit
            screen opens.
            """)

    init(_ arguments: ParsedArguments) {}

    func run(_ context: Context) async throws -> Int32 { try await StoreCommands.collect(context) }
}
