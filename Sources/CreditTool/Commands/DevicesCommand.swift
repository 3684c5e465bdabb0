import OptionParsing

/// `credit devices`: the account's devices and their signed heads.
struct DevicesCommand: CreditCommand {
    static let configuration = CommandSpec(
        "devices", summary: "the account's devices and their signed heads",
        discussion: """
            The account's devices: id, entries, last sequence, whether its signed head is present and agrees with
            its file, and which one is this device. --json prints an array of {"id", "entries", "lastSequence",
            "hasFile", "headPresent", "headAgrees", "head", "headSequence", "isThisDevice"}.
            """)

    var accountUse: AccountUse { .needsAccount(lacking: "it has no devices") }

    init(_ arguments: ParsedArguments) {}

    func run(_ context: Context) throws -> Int32 { try AccountCommands.devices(context) }
}
