import CreditLedger
import Foundation
import OptionParsing
import Payments
import VoiceDebriefCredit

enum LedgerCommands {
    static func balance(_ args: ParsedArguments, _ context: Context) throws -> Int32 {
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

    /// The act the words of `credit charge` (or a line of `credit run`) describe, as the parser read them.
    static func chargeRequest(_ args: ParsedArguments) -> ChargeRequest {
        ChargeRequest(
            args.positional(.key) ?? "", seconds: args.integer(.seconds), quantity: args.integer(.quantity),
            subject: args.string(.subject), automatic: args.flag(.autoOpen))
    }

    /// Reads one line of `credit run` with the words of `credit charge`.
    static func chargeRequest(line words: [String]) throws(UsageError) -> ChargeRequest {
        guard case .run(let args) = try CreditCommandLine.charge.parse(words) else {
            throw UsageError("--help is not an act")
        }
        return chargeRequest(args)
    }

    /// Checks `request` against the price list before any ledger is opened: a mistake in it (an unknown key, an
    /// option the key does not take, a number out of range, a subject too long) is a ``UsageError`` (exit 64); an
    /// act that is never charged is a ``CommandFailure`` (exit 1).
    static func check(_ request: ChargeRequest, command: [String]) throws {
        do {
            try InputLimits.validate(subject: request.subject)
            _ = try Meter.price(of: request, in: VoiceDebriefPrices())
        } catch let error as InputLimits.TooLong {
            throw UsageError(error.description, command: command)
        } catch let error as ChargeError {
            if error.isUsageError { throw UsageError(error.description, command: command) }
            throw CommandFailure(error.description)
        }
    }

    static func charge(_ args: ParsedArguments, _ context: Context) throws -> Int32 {
        let request = LedgerCommands.chargeRequest(args)
        try LedgerCommands.check(request, command: args.path)
        return try context.withLedger { ledger in
            let meter = CreditApp.meter(for: ledger, ids: context.ids)
            let outcome = try meter.charge(request)
            report(outcome, request: request, ledger: ledger, context: context)
            return CreditCLI.success
        }
    }

    private static func report(_ outcome: ChargeOutcome, request: ChargeRequest, ledger: Ledger, context: Context) {
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

    static func decline(_ args: ParsedArguments, _ context: Context) throws -> Int32 {
        // The parser has checked that both are given, and that the reason is one of the four.
        let reasonKey = args.string(.reason) ?? ""
        let text = args.string(.text)
        let id = args.positional(.entryId) ?? ""
        let reason: DeclineReason
        do {
            try InputLimits.validate(text: text)
            reason = try DeclineReason(key: reasonKey, text: text)
        } catch let error as InputLimits.TooLong {
            throw UsageError(error.description, command: args.path)
        } catch let error as LedgerError {
            throw UsageError(error.description, command: args.path)
        }
        if text != nil, reasonKey != "other" {
            throw UsageError("--text goes with --reason other", command: args.path)
        }
        return try context.withLedger { ledger in
            let refund = try ledger.decline(id, reason: reason)
            if context.json {
                try printJSON(EntryJSON(refund))
            } else {
                print(
                    "Declined. \(refund.amount.formatted) given back for "
                        + "\(DisplayText.escaped(EntryWords.charge(refund))); "
                        + "you said: \(DisplayText.escaped(reason.label)). The charge stays in the ledger. "
                        + "Balance \(styledBalance(ledger.balance, context)).")
            }
            return CreditCLI.success
        }
    }

    static func takings(_ args: ParsedArguments, _ context: Context) throws -> Int32 {
        let days = args.string(.days).flatMap { Int64($0) }
        let ledger = try context.openLedger()
        let lines =
            try days.map { try FeatureTakings.list(in: ledger, lastDays: Int($0)) } ?? FeatureTakings.list(in: ledger)
        if context.json {
            try printJSON(lines.map(LedgerOutputs.Takings.init))
            return CreditCLI.success
        }
        print(context.style.bold("Takings by feature, " + (days.map { "the last \($0) days" } ?? "all time")))
        print(lines.isEmpty ? "  Nothing charged yet." : LedgerCommands.takingsTable(lines))
        return CreditCLI.success
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

    static func entries(_ args: ParsedArguments, _ context: Context) throws -> Int32 {
        let ledger = try context.openLedger()
        let screen = try CreditScreen(ledger: ledger, prices: VoiceDebriefPrices())
        if context.json {
            try printJSON(screen.entries.map { EntryJSON($0.entry, balanceAfter: $0.balanceAfter) })
        } else {
            print(LedgerCommands.entriesTable(screen.entries, style: context.style))
        }
        return CreditCLI.success
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

    static func prices(_ args: ParsedArguments, _ context: Context) throws -> Int32 {
        let prices = VoiceDebriefPrices()
        if context.json {
            try printJSON(
                prices.items.map { item in
                    LedgerOutputs.Price(
                        key: item.key, label: item.label, name: item.name, price: item.price.rawValue,
                        unit: item.priceDescription, placeholder: item.isPlaceholder)
                })
        } else {
            print(LedgerCommands.pricesText(prices, style: context.style))
        }
        return CreditCLI.success
    }

    /// The price list as the owner's note writes it: what, the price in words, the key(s).
    static func pricesText(_ prices: VoiceDebriefPrices, style: Style) -> String {
        var rows = [["What", "Price", "Key"]]
        for row in prices.rows { rows.append([row.what, row.price, row.keys.joined(separator: ", ")]) }
        return style.bold("Prices") + " (all placeholders)\n" + table(rows)
            + "\n  Never charged: recording, discarding a recording being made, listing a vault's contents,"
            + "\n  the settings, diagnostics and the credit screen."
    }

    static func runActs(_ args: ParsedArguments, _ context: Context) throws -> Int32 {
        let source = args.positional(.fileOrStdin) ?? "-"
        let text: String
        if source == "-" {
            text = String(decoding: Console.current.input.readAll(), as: UTF8.self)
        } else {
            guard let data = FileManager.default.contents(atPath: source) else {
                throw CommandFailure("cannot read \(source)")
            }
            text = String(decoding: data, as: UTF8.self)
        }
        var requests: [(line: Int, request: ChargeRequest)] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            do {
                var words = try splitWords(line)
                if words.first == "charge" { words.removeFirst() }
                let request = try LedgerCommands.chargeRequest(line: words)
                // Every act is checked before the ledger is opened: a mistake on any line charges nothing.
                try LedgerCommands.check(request, command: args.path)
                requests.append((index + 1, request))
            } catch let error as UsageError {
                throw UsageError(
                    "\(source) line \(index + 1): \(error.message); nothing was charged", command: args.path)
            } catch let error as CommandFailure {
                throw CommandFailure("\(source) line \(index + 1): \(error.message); nothing was charged")
            }
        }
        let meter = Meter(ledger: try context.openLedger(), prices: VoiceDebriefPrices(), ids: context.ids)
        var results: [LedgerOutputs.Acts.Act] = []
        for (line, request) in requests {
            let outcome = try meter.charge(request)
            if context.json {
                var act = LedgerOutputs.Acts.Act(line: line, key: request.key)
                switch outcome {
                case .charged(let entry): act.entry = EntryJSON(entry)
                case .notCharged(let reason): act.notCharged = reason
                }
                results.append(act)
            } else {
                switch outcome {
                case .charged(let entry):
                    print("line \(line): \(DisplayText.escaped(EntryWords.charge(entry))) \(entry.amount.formatted)")
                case .notCharged(let reason):
                    let name = VoiceDebriefPrices().item(for: request.key)?.name ?? request.key
                    print("line \(line): \(DisplayText.escaped(name)): not charged, \(DisplayText.escaped(reason)).")
                }
            }
        }
        if context.json {
            try printJSON(LedgerOutputs.Acts(acts: results, balance: meter.ledger.balance.rawValue))
        } else {
            print("Balance \(styledBalance(meter.ledger.balance, context)).")
        }
        return CreditCLI.success
    }

    static func styledBalance(_ balance: MicroCredits, _ context: Context) -> String {
        balance < .zero ? context.style.warm(balance.formatted) : balance.formatted
    }
}
