import CreditLedger
import DurableFiles
import Foundation
import OptionParsing
import VoiceDebriefCredit

/// `credit sync DIR [--watch]`: the ledger in a folder that something else syncs (issue 28).
struct SyncCommand: CreditCommand {
    static let watch = Option.flag(.watch, help: "keep syncing as the folder changes, until SIGINT or SIGTERM")
    static let recoverRestored = Option.flag(
        .recoverRestored,
        help: "this device was restored from an older copy and used since: keep both its entries in the "
            + "folder and those made here since (not with --watch)")
    static let interval = Option.integer(
        .interval, "SECONDS", in: 1...3600, noun: "a number of seconds",
        help: "with --watch, how often to look even when no change was signalled (default 2)")
    static let folder = Argument.word(.dir, help: "the synced folder")

    static let configuration = CommandSpec(
        "sync", summary: "keep this device in step with the account's others through a synced folder",
        discussion: """
            DIR is a folder that something else syncs (the app's vault, iCloud Drive, Syncthing, a git repository).
            This device writes its own file and signed head into DIR/credit/ (only its own, each replaced
            atomically), then takes every other device's file found there the way `merge` does: whole, only when
            it verifies under this account's key, every entry once. What a sync tool leaves behind (a conflict copy,
            a partial download, a file of another account, a link) is left alone, named once, and taken when it is
            whole. The folder never holds a key: a new device joins from a device's data directory (`credit join`),
            then syncs. --watch keeps syncing as the folder changes (inotify, and a look every --interval seconds),
            until SIGINT or SIGTERM. A device whose data directory was restored from an older copy and used since
            holds entries the folder's copy of its file does not, and the other way round: its file there is left as
            it is and the sync says so; --recover-restored then keeps both (the folder's entries of this device
            come back, and those made here since are written again after them; the file as it was is kept beside
            it as ledger/DEVICE.jsonl.restored-TIME). Exit 0 when the sync was done, whatever it left alone; 1 when
            the folder could not be synced (not there, another account's). --json prints {"taken", "takenCount",
            "ownFile", "ownSequence", "headsKept", "receiptsCountedOnce", "leftAlone": [{"file", "kind", "why"}],
            "balance", "changedNothing", "recovered": {"takenBack", "writtenAgain", "keptAt"} or null}: with
            --watch, one line a round.
            """,
        options: [watch.spec, recoverRestored.spec, interval.spec], positionals: [folder.spec])

    let folder: SyncFolder
    /// `--watch`: keeps syncing until SIGINT or SIGTERM.
    let watching: Bool
    let recovering: Bool
    let interval: Int64?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        folder = SyncFolder(try arguments.value(of: Self.folder))
        watching = try arguments.value(of: Self.watch)
        recovering = try arguments.value(of: Self.recoverRestored)
        interval = try arguments.value(of: Self.interval)
    }

    var awaitsStopSignals: Bool { watching }

    func validate() throws(UsageError) {
        if interval != nil && !watching { throw UsageError("--interval is for --watch") }
        if recovering && watching { throw UsageError("--recover-restored is one sync: run it without --watch") }
    }

    func run(_ context: Context) throws -> Int32 {
        // The folder holds no key: a data directory with no ledger yet cannot become the folder's account's device
        // here, and making a new account beside it would only be refused later.
        if NewDataDirectory(context.dataDirectory).isNew, folder.holdsAnAccount {
            throw CreditFailure.sync(.notADevice(dataDirectory: context.dataDirectory, folder: folder.root))
        }
        // Checked before the ledger is opened: a new one would put its keys in the folder at once.
        if folder.contains(context.dataDirectory) {
            throw CreditFailure.sync(.dataDirectoryInFolder(dataDirectory: context.dataDirectory, folder: folder.root))
        }
        let ledger = try context.openLedger()
        var memo = SyncMemo()
        guard watching else {
            let report = try Self.syncOnce(ledger, folder, &memo, recovering: recovering)
            if recovering && report.recovered == nil {
                printError(
                    "credit: note: this device's file in \(DisplayText.escaped(folder.root)) does not fork from this "
                        + "ledger: there was nothing to recover")
            }
            try Self.show(report, ledger, context, first: true)
            return CreditCLI.success
        }
        return try Self.watchFolder(ledger, folder, memo: &memo, interval: .seconds(interval ?? 2), context)
    }

    /// One sync, its refusal in plain words.
    private static func syncOnce(
        _ ledger: Ledger, _ folder: SyncFolder, _ memo: inout SyncMemo, recovering: Bool
    ) throws -> SyncReport {
        do {
            return try AccountSync(ledger).sync(through: folder, memo: &memo, recoveringRestored: recovering)
        } catch let error as SyncError {
            throw CreditFailure.sync(error)
        }
    }

    /// Syncs, then again each time the folder (or this device's ledger) changes, until SIGINT or SIGTERM. A folder
    /// that is not there for a moment, or an account file still being copied, is said once and waited out.
    private static func watchFolder(
        _ ledger: Ledger, _ folder: SyncFolder, memo: inout SyncMemo, interval: Duration, _ context: Context
    ) throws -> Int32 {
        let watcher = FolderWatcher(
            paths: [
                folder.root, folder.creditDirectory, folder.ledgerDirectory, folder.headsDirectory,
                ledger.ledgerDirectory,
            ],
            interval: interval)
        var first = true
        var waitingFor: SyncError?
        while true {
            do {
                let report = try AccountSync(ledger).sync(through: folder, memo: &memo)
                waitingFor = nil
                try show(report, ledger, context, first: first)
                first = false
            } catch {
                guard let gone = waitedOut(error, folder) else {
                    throw (error as? SyncError).map(CreditFailure.sync) ?? error
                }
                if waitingFor != gone { printError("credit: note: \(gone); waiting for it") }
                waitingFor = gone
            }
            if watcher.wait() == .stopped {
                if !context.json { print("Stopped syncing through \(DisplayText.escaped(folder.root)).") }
                return CreditCLI.success
            }
        }
    }

    /// What a watch waits out rather than stopping for, said once: the folder not there (or not a folder) for a
    /// moment, as found before a round or partway through one (a folder in it removed between two steps: a sync
    /// tool replacing it, a disk unmounted), and a link found where one of its folders belongs (never followed; the
    /// round refused, and run again when the folder is sound). Anything else is nil: it stops the watch.
    static func waitedOut(_ error: any Error, _ folder: SyncFolder) -> SyncError? {
        switch error {
        case let error as SyncError:
            switch error {
            case .folderMissing, .notAFolder: return error
            default: return nil
            }
        case let error as FileError:
            let inFolder = error.path == folder.root || error.path.hasPrefix(folder.root + "/")
            // A folder inside swapped for a link as it was opened (`O_NOFOLLOW`): refused, as one found before.
            if inFolder && error.isSymbolicLink && error.operation == .openDirectory {
                return .notAFolder(path: error.path, found: "a symbolic link")
            }
            guard inFolder, [ENOENT, ENOTDIR].contains(error.errno) else { return nil }
            return .folderMissing(path: folder.root)
        default: return nil
        }
    }

    /// Prints what a sync did: always the first time, and then only when it did something or named something.
    private static func show(_ report: SyncReport, _ ledger: Ledger, _ context: Context, first: Bool) throws {
        guard first || !report.changedNothing || !report.leftAlone.isEmpty else { return }
        // A watching sync's output goes to a log or a pipe: each round is seen when it happens.
        defer { _ = Console.current.output.flush() }
        if context.json {
            try printJSON(report)
            return
        }
        for left in report.leftAlone {
            print(context.style.bad("Left alone: ") + DisplayText.escaped(left.description) + ".")
        }
        for receipt in report.receiptsCountedOnce {
            print("Note: " + DisplayText.escaped(receipt) + ".")
        }
        print(Self.syncWords(report, balance: LedgerCommands.styledBalance(ledger.balance, context)))
    }

    /// The sync in one sentence: "Took 2 entries from 1 other device (b); sent this device's file (#12);
    /// balance £4.87."
    static func syncWords(_ report: SyncReport, balance: String) -> String {
        if report.changedNothing && report.ownFile == .upToDate {
            return "Nothing new: this device and the folder were already in step; balance \(balance)."
        }
        var parts: [String] = []
        if let recovered = report.recovered {
            parts.append(
                "Recovered this device's restored ledger: took back \(CountNoun("entry", "entries")(recovered.takenBack)) "
                    + "of this device from the folder and wrote the \(CountNoun("entry", "entries")(recovered.writtenAgain)) "
                    + "made here since again after \(recovered.takenBack == 1 ? "it" : "them") (its file as it was is kept at "
                    + "\(DisplayText.escaped(recovered.keptAt)))")
        }
        if report.taken.isEmpty {
            parts.append("Nothing new from other devices")
        } else {
            let devices = report.taken.keys.sorted().map { DisplayText.escaped($0) }.joined(separator: ", ")
            parts.append(
                "Took \(CountNoun("entry", "entries")(report.takenCount)) from "
                    + "\(CountNoun("other device", "other devices")(report.taken.count)) (\(devices))")
        }
        switch report.ownFile {
        case .sent: parts.append("sent this device's file to the folder (its entries up to #\(report.ownSequence))")
        case .upToDate: parts.append("this device's file there was up to date")
        case .heldBack: parts.append("this device's file there was left as it is (see above)")
        }
        // One sentence: only its first part starts with a capital.
        let sentence = parts.enumerated().map {
            $0.offset == 0 ? $0.element : $0.element.prefix(1).lowercased() + $0.element.dropFirst()
        }
        return sentence.joined(separator: "; ") + "; balance \(balance)."
    }
}
