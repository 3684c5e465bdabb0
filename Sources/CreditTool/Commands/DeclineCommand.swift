import CreditLedger
import OptionParsing
import VoiceDebriefCredit

/// `credit decline ENTRY-ID --reason R`: a charge given back as a new entry.
struct DeclineCommand: CreditCommand {
    /// Why a charge is declined, as `--reason` takes it.
    enum Reason: String, ChoiceWords {
        case notUsable = "not-usable"
        case notNeeded = "not-needed"
        case test, other
    }

    static let reason = Option.choice(.reason, Reason.self, help: "why it is declined").required()
    static let text = Option.string(
        .text, "T", maxBytes: InputLimits.textBytes,
        help:
            "your words, with --reason other (at most \(ChargeLimits.words(Int64(InputLimits.textBytes))) bytes)"
    )
    static let entryId = Argument.word(.entryId, help: "the id of the charge to decline (see `credit entries`)")

    static let configuration = CommandSpec(
        "decline", summary: "decline a charge: it is given back as a new entry",
        discussion: """
            Declines a charge: its amount is given back as a new refund entry; the charge stays in the ledger.
            A charge can be declined once. --reason other needs --text with your words.
            """,
        options: [reason.spec, text.spec], positionals: [entryId.spec])

    let reason: Reason
    let text: String?
    let entryId: String

    init(_ arguments: ParsedArguments) throws(UsageError) {
        reason = try arguments.value(of: Self.reason)
        text = try arguments.value(of: Self.text)
        entryId = try arguments.value(of: Self.entryId)
    }

    func validate() throws(UsageError) {
        _ = try declineReason()
        if text != nil, reason != .other { throw UsageError("--text goes with --reason other") }
    }

    /// The reason as the ledger records it: `--reason other` needs `--text`, and a text has a limit.
    private func declineReason() throws(UsageError) -> DeclineReason {
        do {
            try InputLimits.validate(text: text)
            return try DeclineReason(key: reason.rawValue, text: text)
        } catch let error as InputLimits.TooLong {
            throw UsageError(error.description)
        } catch let error as LedgerError {
            throw UsageError(error.description)
        } catch {
            throw UsageError(PlainWords.describe(error))
        }
    }

    func run(_ context: Context) throws -> Int32 {
        let reason = try declineReason()
        return try context.withLedger { ledger in
            let refund = try ledger.decline(entryId, reason: reason)
            if context.json {
                try printJSON(EntryJSON(refund))
            } else {
                print(
                    "Declined. \(refund.amount.formatted) given back for "
                        + "\(DisplayText.escaped(EntryWords.charge(refund))); "
                        + "you said: \(DisplayText.escaped(reason.label)). The charge stays in the ledger. "
                        + "Balance \(LedgerCommands.styledBalance(ledger.balance, context)).")
            }
            return CreditCLI.success
        }
    }
}
