import OptionParsing

/// The commands of one account across devices (issue 12): joining a device, listing the devices, merging.
extension CreditCommandLine {
    static let join = CommandSpec(
        "join", summary: "make this new data directory another device of an account",
        discussion: """
            On a new data directory: becomes another device of the account whose data directory is DIR (a synced
            vault folder, a copy). Its keys (kept 0600) and every ledger file and head are taken, after each verifies
            under those keys; this device gets its own id and writes no opening, so the balance is the account's.
            Refused (exit 1, nothing written) when this data directory already has a ledger. --json prints
            {"device", "devices", "entries", "heads", "balance"}.
            """,
        positionals: [PositionalSpec(.dir, help: "the account's data directory (another device's)")])

    static let devices = CommandSpec(
        "devices", summary: "the account's devices and their signed heads",
        discussion: """
            The account's devices: id, entries, last sequence, whether its signed head is present and agrees with
            its file, and which one is this device. --json prints an array of {"id", "entries", "lastSequence",
            "hasFile", "headPresent", "headAgrees", "head", "headSequence", "isThisDevice"}.
            """)

    static let merge = CommandSpec(
        "merge", summary: "merge other devices' ledger files or data directories into this one",
        discussion: """
            Merges a ledger file, or another device's data directory (its ledger/ and heads/), into this data
            directory: every entry is taken once. A file is taken whole or not at all: every line must verify under
            this account's key (MAC, chain, sequences) and a head given with it must agree. A file of another
            account, a forged line, a forked or gapped chain: exit 1, naming the file, the line and why, and nothing
            is written. A second credit of one store transaction is merged, counted once, and reported (exit 1).
            """,
        positionals: [
            PositionalSpec(.fileOrDir, help: "ledger files, or other devices' data directories", repeating: true)
        ])
}

extension CreditCommandLine {
    static let sync = CommandSpec(
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
        options: [
            .flag(.watch, help: "keep syncing as the folder changes, until SIGINT or SIGTERM"),
            .flag(
                .recoverRestored,
                help: "this device was restored from an older copy and used since: keep both its entries in the "
                    + "folder and those made here since (not with --watch)"),
            .integer(
                .interval, "SECONDS", in: 1...3600, noun: "a number of seconds",
                help: "with --watch, how often to look even when no change was signalled (default 2)"),
        ],
        positionals: [PositionalSpec(.dir, help: "the synced folder")])
}
