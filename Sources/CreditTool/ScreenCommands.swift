import CreditLedger
import DurableFiles
import Foundation
import OptionParsing
import Payments
import TopUp
import VoiceDebriefCredit

enum ScreenCommands {
    static func screen(_ context: Context) async throws -> Int32 {
        let ledger = try context.openLedger()
        let flow = try StoreCommands.flow(ledger, context)
        let (collectNote, offers, storeNote) = try await ScreenCommands.collectForScreen(ledger, flow, context)
        let pending = PendingPurchases.load(from: context.dataDirectory)
        let model = try CreditScreen(ledger: ledger, prices: VoiceDebriefPrices())
        if context.json {
            var object = ScreenOutput(model, offers: offers, takesMoney: flow.store.takesMoney)
            object.pending = ScreenCommands.pendingJSON(pending, at: context.clock.now())
            object.collected = collectNote.isEmpty ? nil : collectNote.joined(separator: " ")
            object.storeProblem = storeNote
            try printJSON(object)
            return CreditCLI.success
        }
        let style = context.style
        let sections = [
            [style.bold("VoiceDebrief credit")],
            balanceLines(model, collected: collectNote, style: style),
            topUpLines(offers, flow, pending: pending, storeNote: storeNote, context),
            takingsLines(model, style: style),
            entriesLines(model, style: style),
            [LedgerCommands.pricesText(VoiceDebriefPrices(), style: style)],
        ]
        print(sections.map { $0.joined(separator: "\n") }.joined(separator: "\n\n"))
        return CreditCLI.success
    }

    /// The balance, what was used and topped up, and what collecting the store's purchases just did.
    private static func balanceLines(_ model: CreditScreen, collected collectNote: [String], style: Style)
        -> [String]
    {
        var out: [String] = []
        let balance = model.isBelowZero ? style.warm(model.balance.formatted) : style.bold(model.balance.formatted)
        out.append("  Balance     \(balance)")
        if model.isBelowZero {
            out.append(
                "  "
                    + style.warm(
                        "You are \(model.overBy.formatted) over your credit. \(CreditScreen.belowZeroSentence)"))
        }
        out.append("  Used        \(model.used.formatted)")
        out.append("  Topped up   \(model.toppedUp.formatted)")
        for line in collectNote { out.append("  " + DisplayText.escaped(line)) }
        return out
    }

    /// The store's trouble, the purchases waiting, the packs on offer (cheapest first) with the command that buys
    /// each, and whether money is taken.
    private static func topUpLines(
        _ offers: [StoreProduct], _ flow: TopUpFlow, pending: PendingPurchases, storeNote: String?, _ context: Context
    ) -> [String] {
        var out = [context.style.bold("Top up")]
        if let storeNote { out.append("  " + storeNote) }
        // Each waiting purchase on a line of its own, settled on its own.
        for line in pending.descriptions(at: context.clock.now(), packs: VoiceDebriefStore.packs) {
            out.append("  Pending: " + DisplayText.escaped(line))
        }
        let sortedOffers = offers.sorted {
            (flow.catalogue.credits[$0.id] ?? .zero, $0.id) < (flow.catalogue.credits[$1.id] ?? .zero, $1.id)
        }
        if !sortedOffers.isEmpty {
            out.append(
                table(
                    sortedOffers.map { offer in
                        [
                            DisplayText.tableCell(offer.displayName, width: LedgerCommands.whatWidth),
                            DisplayText.tableCell(offer.displayPrice, width: LedgerCommands.featureWidth),
                            offer.id == flow.catalogue.defaultProduct
                                ? "credit topup" : "credit topup --product \(DisplayText.escaped(offer.id))",
                        ]
                    }))
        }
        out.append(
            flow.store.takesMoney
                ? "  Through the mock store: a sandbox, for test purchases; no real money."
                : "  The store is simulated: no money is taken.")
        return out
    }

    /// What each feature took, all time, with the net of the last 7 and 30 days.
    private static func takingsLines(_ model: CreditScreen, style: Style) -> [String] {
        let title = style.bold("Takings by feature") + " (all time; net over the last 7 and 30 days)"
        guard !model.takingsAllTime.isEmpty else { return [title, "  Nothing charged yet."] }
        let net7 = Dictionary(uniqueKeysWithValues: model.takings7Days.map { ($0.feature, $0.net) })
        let net30 = Dictionary(uniqueKeysWithValues: model.takings30Days.map { ($0.feature, $0.net) })
        return [
            title,
            LedgerCommands.takingsTable(model.takingsAllTime, extra: [("Net 7d", net7), ("Net 30d", net30)]),
        ]
    }

    /// The newest entries, and how many older ones `credit entries` shows.
    private static func entriesLines(_ model: CreditScreen, style: Style) -> [String] {
        var out = [
            style.bold("Entries") + ", newest first",
            LedgerCommands.entriesTable(model.entries.prefix(ScreenCommands.screenEntries), style: style),
        ]
        if model.entries.count > ScreenCommands.screenEntries {
            let older = model.entries.count - ScreenCommands.screenEntries
            out.append(
                "  The newest \(ScreenCommands.screenEntries) of \(model.entries.count) entries; "
                    + "\(CountNoun("older one", "older ones")(older)): `credit entries` shows every entry.")
        }
        return out
    }

    /// Every waiting purchase: product, when it was asked for, why it waits, the store's transaction id (null when
    /// the store did not say), whether an Ask to Buy request has lapsed, and the sentence the screen shows.
    static func pendingJSON(_ pending: PendingPurchases, at now: Timestamp) -> [ScreenOutput.Pending] {
        pending.purchases.map { purchase in
            ScreenOutput.Pending(
                product: purchase.product, date: purchase.since, reason: purchase.reason?.rawValue,
                waitingFor: PendingPurchases.waitingFor(purchase.reason), transactionId: purchase.transactionId,
                lapsed: PendingPurchases.hasLapsed(purchase, at: now),
                text: PendingPurchases.describe(purchase, at: now, packs: VoiceDebriefStore.packs))
        }
    }

    /// Opening the credit screen first collects what the store holds for us, and reads the store's offers: what
    /// was collected in words, the offers, and why the store could not be reached, if it could not.
    static func collectForScreen(_ ledger: Ledger, _ flow: TopUpFlow, _ context: Context) async throws -> (
        collected: [String], offers: [StoreProduct], storeProblem: String?
    ) {
        var collectNote: [String] = []
        do {
            // Read-only, nothing is collected (the ledger's notice says so): what was collected could not be kept.
            if !ledger.isReadOnly {
                let report = try await StoreCommands.collect(with: flow, context)
                if !report.credited.isEmpty || !report.refused.isEmpty || !report.reversed.isEmpty {
                    collectNote = StoreCommands.describe(report)
                }
            }
            let offers = try await flow.store.products(for: flow.catalogue.credits.keys.sorted())
            return (collectNote, offers, nil)
        } catch let error as CreditFailure {
            return (collectNote, [], storeProblem(error.storeError, otherwise: error.description))
        } catch let error as StoreError {
            return (collectNote, [], storeProblem(error, otherwise: error.description))
        }
    }

    /// Why the store could not be reached, once: the network's own failure, else what the store said.
    private static func storeProblem(_ error: StoreError?, otherwise words: String) -> String {
        let detail = error?.reasonClause ?? words
        return "The store cannot be reached (\(DisplayText.escaped(detail))); top-ups wait "
            + "until it can."
    }

    /// How many entries the credit screen shows, the newest (`credit entries` shows them all).
    static let screenEntries = 50

    /// `credit verify [FILE...]`: the data directory's ledger, or `files`.
    static func verify(_ files: [String], _ context: Context) throws -> Int32 {
        for file in files where !FileManager.default.fileExists(atPath: file) {
            throw CreditFailure.noSuchFile(path: file)
        }
        let report: VerificationReport
        do {
            let ledger = try context.openLedger()
            report = try CreditApp.verify(ledger, files: files.isEmpty ? nil : files)
        } catch let error as LedgerError where error.isDamagedLine {
            // A damaged line keeps the ledger from opening: check the files as they are (a line that does not
            // verify is among the problems found, so only an unreadable one is told here).
            if case .corruptLine = error { printError("credit: note: \(error); checking the files as they are") }
            // The one reader of `device`: a link planted there is not followed.
            let device = try? LedgerDirectory.deviceID(in: context.dataDirectory)
            report = try CreditApp.verify(
                directory: context.dataDirectory, files: files.isEmpty ? nil : files,
                requiringHeadOf: files.isEmpty ? device : nil)
        }
        if context.json {
            try printJSON(
                LedgerOutputs.Verification(
                    ok: report.isClean, entriesChecked: report.entriesChecked, devices: report.devices,
                    balance: report.balance.rawValue, receiptsChecked: report.receiptsChecked,
                    simulatedTopUps: report.simulatedTopUps, notes: report.notes,
                    problems: report.problems.map {
                        LedgerOutputs.Verification.Problem(
                            kind: $0.kind.rawValue, file: $0.file, detail: $0.detail, line: $0.line)
                    }))
        } else {
            let style = context.style
            print(
                "Checked \(CountNoun("entry", "entries")(report.entriesChecked)) from "
                    + "\(CountNoun("device", "devices")(report.devices.count)); balance \(report.balance.formatted); "
                    + "\(CountNoun("store receipt", "store receipts")(report.receiptsChecked)) checked, "
                    + "\(CountNoun("simulated top-up", "simulated top-ups")(report.simulatedTopUps)) (no money taken)."
            )
            for note in report.notes { print(style.dim("Note: ") + DisplayText.escaped(note)) }
            if report.isClean {
                print(style.good("All holds: every chain, head and receipt verifies."))
            } else {
                print(style.bad("\(CountNoun("problem", "problems")(report.problems.count)):"))
                // A problem quotes what a file holds (ids, paths): shown escaped, never obeyed.
                for problem in report.problems { print("  " + DisplayText.escaped(problem.description)) }
            }
        }
        return report.isClean ? CreditCLI.success : CreditCLI.failure
    }
}
