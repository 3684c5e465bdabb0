import CreditLedger
import DurableFiles
import Foundation
import OptionParsing
import Payments
import VoiceDebriefCredit

/// One account across devices (issue 12): `credit join`, `credit devices`, `credit merge`.
enum AccountCommands {
    /// Joins before any ledger is opened here: opening would write a new device's opening and keys, and a join is
    /// refused on a data directory that has them.
    static func join(_ account: String, _ context: Context) throws -> Int32 {
        let report: JoinReport
        do {
            report = try AccountSync.join(
                directory: context.dataDirectory, account: account, carrying: StoreConfiguration.fileNames,
                ids: context.ids)
        } catch let error as JoinError {
            throw CreditFailure.join(error)
        }
        if context.json {
            try printJSON(
                AccountOutputs.Joined(
                    device: report.device, devices: report.devices, entries: report.entries, heads: report.heads,
                    balance: report.balance.rawValue))
        } else {
            let others = report.devices.isEmpty ? "" : " (\(report.devices.joined(separator: ", ")))"
            let place = DisplayText.escaped(account)
            print(
                "Joined the account in \(place) as device \(report.device): took "
                    + "\(CountNoun("entry", "entries")(report.entries)) of "
                    + "\(CountNoun("device", "devices")(report.devices.count))\(others) and "
                    + "\(CountNoun("signed head", "signed heads")(report.heads)). "
                    + "Balance \(LedgerCommands.styledBalance(report.balance, context)).")
        }
        return CreditCLI.success
    }

    static func devices(_ context: Context) throws -> Int32 {
        let devices = try DeviceSummary.list(in: context.openLedger())
        if context.json {
            try printJSON(devices.map(AccountOutputs.Device.init))
            return CreditCLI.success
        }
        var rows = [["Device", "Entries", "Last sequence", "Head", ""]]
        for device in devices {
            let head = device.head == .missing ? "missing" : "present, \(device.head.rawValue)"
            rows.append([
                DisplayText.escaped(device.id), String(device.entries), String(device.lastSequence), head,
                device.isThisDevice ? "this device" : "",
            ])
        }
        print(table(rows, rightAligned: [1, 2]))
        return CreditCLI.success
    }

    /// Takes each file whole or not at all; a refusal names the file, the line and why, and nothing is written.
    static func merge(_ paths: [String], _ context: Context) throws -> Int32 {
        let ledger = try context.openLedger()
        let report: MergeReport
        do {
            report = try AccountSync(ledger).merge(files: paths)
        } catch let refusal as MergeRefusal {
            throw CreditFailure.mergeRefused(refusal)
        } catch let error as FileError {
            throw CreditFailure.mergeFile(error)
        }
        if context.json {
            try printJSON(
                AccountOutputs.Merged(
                    added: report.added, alreadyPresent: report.alreadyPresent, problems: report.problems,
                    receiptsCountedOnce: report.receiptsCountedOnce, headsKept: report.headsKept,
                    balance: ledger.balance.rawValue))
        } else {
            let devices = report.added.keys.sorted().map { "\(DisplayText.escaped($0)): \(report.added[$0]!)" }
                .joined(separator: ", ")
            print(
                "Merged \(CountNoun("new entry", "new entries")(report.addedCount))"
                    + (devices.isEmpty ? "" : " (\(devices))")
                    + "; \(report.alreadyPresent) \(report.alreadyPresent == 1 ? "was" : "were") already here. "
                    + "Balance \(LedgerCommands.styledBalance(ledger.balance, context))."
            )
            for problem in report.problems { print(context.style.bad("Problem: ") + DisplayText.escaped(problem)) }
        }
        return report.problems.isEmpty ? CreditCLI.success : CreditCLI.failure
    }
}
