import CreditLedger
import OptionParsing

/// `credit balance`: the counter.
struct BalanceCommand: CreditCommand {
    static let configuration = CommandSpec(
        "balance", summary: "the counter: the balance",
        discussion: """
            The counter: the balance. --json prints {"balance": <micro-credits>, "formatted": "£4.94"}.
            """)

    var accountUse: AccountUse { .reads }

    init(_ arguments: ParsedArguments) {}

    func run(_ context: Context) throws -> Int32 {
        // An unchanged ledger's balance comes from its signed checkpoint, a grown one's from the checkpoint and the
        // new lines; anything else is a full load.
        let balance: MicroCredits
        switch LedgerCheckpoint.counter(directory: context.dataDirectory) {
        case .counted(let counted, _):
            balance = counted
            // The fast path opens no ledger, so no ledger notice says it: say it here.
            if LedgerDirectory.cannotWrite(context.dataDirectory) {
                printError("credit: note: \(LedgerNotice.readOnly(directory: context.dataDirectory))")
            }
        case .readWhole(let change):
            if let change { printError("credit: note: \(change)") }
            balance = try context.openLedger().balance
        }
        if context.json {
            try printJSON(LedgerOutputs.Balance(balance: balance.rawValue, formatted: balance.formatted))
        } else {
            let text = balance.formatted
            print(balance < .zero ? context.style.warm(text) : text)
        }
        return CreditCLI.success
    }
}
