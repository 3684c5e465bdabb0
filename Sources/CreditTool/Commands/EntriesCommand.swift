import CreditLedger
import OptionParsing
import VoiceDebriefCredit

/// `credit entries`: every entry, newest first.
struct EntriesCommand: CreditCommand {
    static let configuration = CommandSpec(
        "entries", summary: "every entry, newest first, with the balance after it",
        discussion: "Every entry, newest first, with the balance after it. --json prints an array.")

    var accountUse: AccountUse { .reads }

    init(_ arguments: ParsedArguments) {}

    func run(_ context: Context) throws -> Int32 {
        let ledger = try context.openLedger()
        let screen = try CreditScreen(ledger: ledger, prices: VoiceDebriefPrices())
        if context.json {
            try printJSON(screen.entries.map { EntryJSON($0.entry, balanceAfter: $0.balanceAfter) })
        } else {
            print(LedgerCommands.entriesTable(screen.entries, style: context.style))
        }
        return CreditCLI.success
    }
}
