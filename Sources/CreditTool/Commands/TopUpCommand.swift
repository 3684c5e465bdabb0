import OptionParsing
import VoiceDebriefCredit

/// `credit topup [--product ID]`: a top-up through the configured store.
struct TopUpCommand: CreditCommand {
    static let product = Option.string(.product, "ID", help: "the pack to buy (default: the £5.00 pack)")

    static let configuration = CommandSpec(
        "topup", summary: "top up through the configured store",
        discussion: """
            Tops up through the configured store (see `credit store`). With the simulated store no money is taken
            and the entry reads "Top-up (simulated, no money taken)". With the mock store the signed transaction is
            verified, recorded in the ledger, and only then finished. If the finish fails, the top-up still stands
            (exit 0) and the next collect finishes it. If the purchase gets no answer, it may have gone through
            (exit 1): `credit collect` or the credit screen credits it then, once.
            """,
        options: [product.spec])

    /// The pack to buy.
    let product: String

    init(_ arguments: ParsedArguments) throws(UsageError) {
        product = try arguments.value(of: Self.product) ?? VoiceDebriefStore.packs.defaultProduct
    }

    func validate() throws(UsageError) {
        guard VoiceDebriefStore.packs.credits[product] != nil else {
            let packs = VoiceDebriefStore.packs.credits.keys.sorted().joined(separator: ", ")
            throw .invalidValue("--product", product, isNot: "one of the app's packs (\(packs))")
        }
    }

    func run(_ context: Context) async throws -> Int32 { try await StoreCommands.topUp(product, context) }
}
