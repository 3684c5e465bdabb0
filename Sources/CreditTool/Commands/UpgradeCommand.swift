import CreditLedger
import OptionParsing

/// `credit upgrade`: signs a ledger made before signing existed.
struct UpgradeCommand: CreditCommand {
    static let configuration = CommandSpec(
        "upgrade", summary: "sign a ledger made before signing existed",
        discussion: """
            Signs a ledger made before signing existed: every entry is rewritten, byte for byte the same content,
            with its MAC chain, into a new file that replaces the old one atomically. The old file is kept beside it.
            Says what it did. A signed ledger is left alone.
            """)

    init(_ arguments: ParsedArguments) {}

    func run(_ context: Context) throws -> Int32 {
        let ledger = try context.openLedger()
        guard !ledger.isSigned else {
            if context.json {
                try printJSON(LedgerOutputs.Upgrade(upgraded: false))
            } else {
                print("The ledger is already signed. Nothing was changed.")
            }
            return CreditCLI.success
        }
        let report = try ledger.upgradeToSigned(keys: try LedgerKeys.load(from: context.dataDirectory))
        if context.json {
            try printJSON(
                LedgerOutputs.Upgrade(
                    upgraded: true, entriesSigned: report.entriesSigned, file: report.file, backup: report.backup))
        } else {
            print(
                "Signed \(CountNoun("entry", "entries")(report.entriesSigned)) of \(report.file): each now carries the MAC of the entry "
                    + "before it and its own. The unsigned file is kept as \(report.backup). A signed head was written."
            )
        }
        return CreditCLI.success
    }
}
