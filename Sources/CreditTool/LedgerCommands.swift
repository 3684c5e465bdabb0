import CreditLedger
import Foundation
import OptionParsing
import Payments
import VoiceDebriefCredit

enum LedgerCommands {
    /// Checks `request` against the price list before any ledger is opened: a mistake in it (an unknown key, an
    /// option the key does not take, a number out of range, a subject too long) is a ``UsageError`` (exit 64); an
    /// act that is never charged is a ``CreditFailure`` (exit 1).
    static func check(_ request: ChargeRequest) throws {
        do {
            try InputLimits.validate(subject: request.subject)
            _ = try Meter.price(of: request, in: VoiceDebriefPrices())
        } catch let error as InputLimits.TooLong {
            throw UsageError(error.description)
        } catch let error as ChargeError {
            if error.isUsageError { throw UsageError(error.description) }
            throw CreditFailure.neverCharged(error)
        }
    }

    static func report(_ outcome: ChargeOutcome, request: ChargeRequest, ledger: Ledger, context: Context) {
        switch outcome {
        case .charged(let entry):
            if context.json {
                var object = EntryJSON(entry)
                object.charged = true
                try? printJSON(object)
            } else {
                // In words, by the act's name in the price list: "Charged £5.01: Transcript, 167 minutes (note-1)."
                print(
                    "Charged \(MicroCredits(-entry.amount.rawValue).formatted): "
                        + "\(DisplayText.escaped(EntryWords.charge(entry))). "
                        + "Balance \(styledBalance(ledger.balance, context)). Entry \(entry.id)")
            }
        case .notCharged(let reason):
            if context.json {
                try? printJSON(LedgerOutputs.NotCharged(reason: reason, key: request.key))
            } else {
                print("Not charged: \(DisplayText.escaped(reason)). Balance \(styledBalance(ledger.balance, context)).")
            }
        }
    }

    static func takingsTable(_ lines: [FeatureTakings], extra: [(String, [String: MicroCredits])] = []) -> String {
        var rows = [["Feature", "Charges", "Charged", "Declined", "Given back", "Net"] + extra.map(\.0)]
        for line in lines {
            rows.append(
                [
                    LedgerCommands.featureCell(line.feature), String(line.charges),
                    line.charged.formatted, String(line.declined),
                    line.givenBack.formatted, line.net.formatted,
                ]
                    + extra.map { ($0.1[line.feature] ?? .zero).formatted })
        }
        return table(rows, rightAligned: Set(1..<(6 + extra.count)))
    }

    /// An entry in words (see ``EntryWords``): `Transcript, 167 minutes (note-1)`.
    static func describe(_ entry: LedgerEntry) -> String { EntryWords.describe(entry) }

    /// The widest a table's "What" cell, an id and a feature are shown (longer ones end with "…").
    static let whatWidth = 60
    /// Every id the ledger writes fits (a refund step's of a 19-digit transaction, its event and share included).
    static let idWidth = 72
    static let featureWidth = 24
    /// A feature's name with its key beside it: the longest of the price list's fits (`Adding a vault made
    /// elsewhere (addVault)`).
    static let featureCellWidth = 48

    /// Every feature's name in the price list's words, by key.
    static let featureNames = VoiceDebriefPrices().featureNames

    /// A feature for a table cell: its name in the price list's words with its key beside it (`A transcript
    /// (transcript)`), or the key alone when the price list has no name for it (a summary from a later app).
    static func featureCell(_ key: String) -> String {
        guard let name = featureNames[key] else { return DisplayText.tableCell(key, width: featureCellWidth) }
        return DisplayText.tableCell("\(name) (\(key))", width: featureCellWidth)
    }

    static func entriesTable(
        _ rows: some Sequence<(entry: LedgerEntry, balanceAfter: MicroCredits)>, style: Style
    ) -> String {
        var lines = [["When (UTC)", "What", "Amount", "Balance", "Id"]]
        for row in rows {
            // Subjects, texts and ids are data, maybe from another device's file: escaped, and cut so that one long
            // value never widens the other rows.
            lines.append([
                row.entry.time.shortDisplay, DisplayText.tableCell(describe(row.entry), width: whatWidth),
                row.entry.amount.formatted, row.balanceAfter.formatted,
                DisplayText.idCell(row.entry.id, width: idWidth),
            ])
        }
        return table(lines, rightAligned: [2, 3])
    }

    /// The price list as the owner's note writes it: what, the price in words, the key(s).
    static func pricesText(_ prices: VoiceDebriefPrices, style: Style) -> String {
        var rows = [["What", "Price", "Key"]]
        for row in prices.rows { rows.append([row.what, row.price, row.keys.joined(separator: ", ")]) }
        return style.bold("Prices") + " (all placeholders)\n" + table(rows)
            + "\n  Never charged: recording, discarding a recording being made, listing a vault's contents,"
            + "\n  the settings, diagnostics and the credit screen."
    }

    static func styledBalance(_ balance: MicroCredits, _ context: Context) -> String {
        balance < .zero ? context.style.warm(balance.formatted) : balance.formatted
    }
}
