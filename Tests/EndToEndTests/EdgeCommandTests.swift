import CreditLedger
import Foundation
import TestSupport
import Testing

/// Issue 25 through the built `credit` binary: a join killed at any step, a tampered line, another account's file,
/// the store configuration a joined device takes, and the store's files never read through a link.
@Suite struct EdgeCommandTests {
    /// The faults a join can be killed at: each durable replace of its files (three keys, a ledger file, a head,
    /// the device id), each step of it, and the rename that makes the device.
    static let joinFaults: [String] =
        ["replace.before-sync", "replace.before-rename", "replace.before-directory-sync"].flatMap { point in
            (1...6).map { "\(point)@\($0)" }
        } + ["join.before-rename"]

    // Real kills at every step of a join: the stage of real kills (KillStage).
    @Test(.enabled(if: KillStage.isOn, KillStage.reason), arguments: joinFaults)
    func aJoinKilledAtAnyStepLeavesTheDirectoryUntouchedAndJoinAgainCompletesIt(_ fault: String) async throws {
        let a = try DataDirectory()
        try await a.ok("charge", "debrief")
        let b = try DataDirectory()
        let killed = try await Credit.run(
            ["join", a.path], dataDirectory: b.path, environment: ["CREDIT_FAULT": fault])
        #expect(killed.status != 0, "the fault point was reached: \(killed)")
        #expect(!FileManager.default.fileExists(atPath: b.path), "untouched: no part of a device in it")
        let again = try await b.ok("join", a.path)
        #expect(again.stdout.contains("Joined the account"), "\(again)")
        await #expect(try b.balance() == (try a.balance()))
        try await b.ok("charge", "send")
        try await a.ok("charge", "createVault")
        try await a.ok("merge", b.path)
        try await b.ok("merge", a.path)
        await #expect(try a.balance() == 5_000_000 - 50_000 - 10_000 - 100_000)
        await #expect(try b.balance() == (try a.balance()))
        for device in [a, b] { await #expect(try device.ok("verify").stdout.contains("All holds")) }
        let openings = try await b.ok("entries", "--json").jsonArray().filter { $0["kind"] as? String == "opening" }
        #expect(openings.count == 1, "one opening for the account")
    }

    @Test func aTamperedAmountStopsEveryCommandThatReadsAndNothingIsAppended() async throws {
        let a = try DataDirectory()
        for _ in 1...3 { try await a.ok("charge", "debrief") }
        let file = try a.ledgerFile
        let text = String(decoding: try a.bytes(file), as: UTF8.self)
        var lines = text.split(separator: "\n").map(String.init)
        lines[2] = lines[2].replacing("\"amount\":-50000", with: "\"amount\":-10000")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let before = try a.bytes(file)
        for command in [["balance"], ["charge", "debrief"], ["screen"], ["entries"], ["takings"]] {
            let result = try await Credit.run(command, dataDirectory: a.path, now: "2026-11-29T12:00:00.000Z")
            #expect(result.status == 1, "\(command): \(result)")
            #expect(result.stderr.contains("line 3 does not verify"), "\(command): \(result)")
            #expect(result.stderr.contains("credit verify"), "\(command): \(result)")
            #expect(result.stderr.contains(file), "the file is named: \(result)")
        }
        #expect(try a.bytes(file) == before, "nothing appended after a changed line")
        let verify = try await a.credit("verify")
        #expect(verify.status == 1)
        #expect(verify.stdout.contains(":3: changed"), "\(verify)")
    }

    @Test func verifyOfAnotherAccountsFileSaysSoAndOfAFileThatIsNoLedgerToo() async throws {
        let a = try DataDirectory()
        try await a.ok("charge", "debrief")
        let other = try DataDirectory()
        try await other.ok("charge", "send")
        let foreign = try await a.credit("verify", try other.ledgerFile)
        #expect(foreign.status == 1)
        #expect(foreign.stdout.contains("another account's ledger"), "\(foreign)")
        #expect(!foreign.stdout.contains("changed"), "\(foreign)")
        let notes = a.temporary.path + "/notes.txt"
        try Data("milk\neggs\n".utf8).write(to: URL(fileURLWithPath: notes))
        let plain = try await a.credit("verify", notes)
        #expect(plain.status == 1)
        #expect(plain.stdout.contains("not a ledger file"), "\(plain)")
    }

    @Test func aJoinedDeviceTakesTheStoreConfiguration() async throws {
        let a = try DataDirectory()
        try await a.ok("charge", "debrief")
        let secret = a.temporary.path + "/secret"
        try Data("a shared secret of some length".utf8).write(to: URL(fileURLWithPath: secret))
        #expect(chmod(secret, 0o600) == 0)
        try await a.ok("store", "use", "mockstore", "--url", "http://127.0.0.1:9", "--secret-file", secret)
        let b = try DataDirectory()
        try await b.ok("join", a.path)
        let shown = try await b.ok("store")
        #expect(shown.stdout.contains("127.0.0.1:9"), "\(shown)")
        #expect(try b.bytes(b.path + "/store-secret") == (try a.bytes(a.path + "/store-secret")))
    }

    @Test func theStoreConfigurationIsNeverReadThroughALink() async throws {
        let a = try DataDirectory()
        try await a.ok("charge", "debrief")
        let elsewhere = a.temporary.path + "/elsewhere.json"
        try Data("{\"store\":\"mockstore\",\"url\":\"http://127.0.0.1:9\",\"signing\":\"hs256\"}\n".utf8).write(
            to: URL(fileURLWithPath: elsewhere))
        try FileManager.default.createSymbolicLink(atPath: a.path + "/store.json", withDestinationPath: elsewhere)
        let result = try await a.credit("store")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("symbolic link"), "\(result)")
    }
}

/// Issue 25 items 10 and 13: a command that only reads never makes a data directory, a command that fails leaves
/// none behind, and a data directory this user cannot write (its lock file included) is read as it is.
@Suite struct NewAndReadOnlyDirectoryTests {
    @Test(arguments: ["balance", "screen", "entries", "takings", "pnl"])
    func aReadingCommandOnADirectoryThatIsNotThereShowsANewAccountAndMakesNothing(_ command: String) async throws {
        let temporary = try TemporaryDirectory()
        let missing = temporary.path + "/not-yet/data"
        let result = try await Credit.run([command], dataDirectory: missing, now: "2026-11-29T12:00:00.000Z")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("no account exists in \(missing) yet"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: temporary.path + "/not-yet"), "nothing was made")
        if command == "balance" { #expect(result.stdout.contains("£5.00")) }
    }

    /// Issue 35 item 5: a command about an account that exists, on a data directory with none (missing or empty),
    /// says so and makes nothing: no phantom account exported into the owner's P&L, no device shown that is not.
    @Test(arguments: [["export", "--summary", "SUMMARY"], ["devices"], ["verify"]], [false, true])
    func aCommandAboutAnAccountOnADirectoryWithNoneIsRefusedAndMakesNothing(_ command: [String], empty: Bool)
        async throws
    {
        let temporary = try TemporaryDirectory()
        let data = temporary.path + "/data"
        if empty { try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true) }
        let summary = temporary.path + "/summary.json"
        let arguments = command.map { $0 == "SUMMARY" ? summary : $0 }
        let result = try await Credit.run(arguments, dataDirectory: data, now: "2026-11-29T12:00:00.000Z")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("no account exists in \(data)"), "\(result)")
        #expect(!result.stdout.contains("device"), "no device shown: \(result)")
        #expect(!FileManager.default.fileExists(atPath: summary), "no summary written")
        if empty {
            #expect(try FileManager.default.contentsOfDirectory(atPath: data) == [], "nothing made in it")
        } else {
            #expect(!FileManager.default.fileExists(atPath: data), "nothing made")
        }
    }

    @Test func aMergeThatFailsIntoAnEmptyDirectoryLeavesItEmpty() async throws {
        let other = try DataDirectory()
        try await other.ok("charge", "debrief")
        let temporary = try TemporaryDirectory()
        let data = temporary.path + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let result = try await Credit.run(["merge", other.path], dataDirectory: data, now: "2026-11-29T12:00:00.000Z")
        #expect(result.status == 1, "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: data) == [], "a command that fails makes nothing")
    }

    @Test func aMergeThatFailsIntoANewDirectoryLeavesNothingBehind() async throws {
        let other = try DataDirectory()
        try await other.ok("charge", "debrief")
        let temporary = try TemporaryDirectory()
        let missing = temporary.path + "/new/data"
        let result = try await Credit.run(
            ["merge", other.path], dataDirectory: missing, now: "2026-11-29T12:00:00.000Z")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("another account's ledger"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: temporary.path + "/new"), "a command that fails makes nothing")
    }

    /// A home of `nobody`'s with a copy of `credit` in it, and a way to run a shell script there as `nobody` (through
    /// setpriv), since root may write anything; nil where this cannot be done (not root, no setpriv).
    private func asNobody() async throws -> (TemporaryDirectory, (String) async throws -> ProcessResult)? {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            let nobody = getpwnam("nobody")
        else { return nil }
        let temporary = try TemporaryDirectory()
        let home = temporary.path + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        // Copied by another process: a copy open in this one could be inherited by a child another test spawns
        // meanwhile, and running it would then fail as "text file busy".
        // `credit` and `credit-core`, which the launcher becomes, side by side as they are built.
        let launcher = try Credit.requireBinary()
        let core = (launcher as NSString).deletingLastPathComponent + "/credit-core"
        let copied = try await ChildProcess.run("/bin/cp", [launcher, core, home + "/"], environment: [:], timeout: 60)
        #expect(copied.status == 0, "\(copied)")
        #expect(chown(home, nobody.pointee.pw_uid, nobody.pointee.pw_gid) == 0)
        #expect(chmod(temporary.path, 0o755) == 0)
        let group = nobody.pointee.pw_gid
        return (
            temporary,
            { script in
                try await ChildProcess.run(
                    "/usr/bin/setpriv",
                    [
                        "--reuid=nobody", "--regid=\(group)", "--clear-groups", "/bin/sh", "-c",
                        "cd \(home) && " + script,
                    ],
                    environment: [
                        "HOME": home, "NO_COLOR": "1", "CREDIT_NOW": "2026-11-29T12:00:00.000Z",
                        "PATH": "/usr/bin:/bin",
                    ],
                    timeout: 60)
            }
        )
    }

    /// A data directory whose lock file cannot be written is read, and a charge says it cannot write.
    @Test func aDataDirectoryWhoseLockFileCannotBeWrittenIsRead() async throws {
        guard let (temporary, asNobody) = try await asNobody() else { return }
        defer { withExtendedLifetime(temporary) {} }
        let made = try await asNobody("./credit --data-dir d charge debrief && chmod a-w d/ledger/.lock")
        #expect(made.status == 0, "\(made)")
        let balance = try await asNobody("./credit --data-dir d balance")
        #expect(balance.status == 0, "\(balance)")
        #expect(balance.stdout.contains("£4.95"), "\(balance)")
        #expect(!balance.stderr.contains("Permission denied"), "\(balance)")
        let charge = try await asNobody("./credit --data-dir d charge debrief")
        #expect(charge.status == 1, "\(charge)")
        #expect(charge.stderr.contains("cannot be written"), "\(charge)")
    }

    /// Issue 35 item 6: with the ledger directory read-only, `merge` and `sync` are refused as `charge` is, and
    /// nothing is written: never "nothing was written" and then a merge.
    @Test func aReadOnlyLedgerIsNeitherMergedIntoNorSynced() async throws {
        guard let (temporary, asNobody) = try await asNobody() else { return }
        let home = temporary.path + "/home"
        let made = try await asNobody(
            "./credit --data-dir d charge debrief && ./credit --data-dir e join d && ./credit --data-dir e charge send "
                + "&& ./credit --data-dir d merge e && ./credit --data-dir e charge send && mkdir vault "
                + "&& chmod a-w d/ledger/.lock d/ledger")
        #expect(made.status == 0, "\(made)")
        let files = try FileManager.default.contentsOfDirectory(atPath: home + "/d/ledger").sorted()
        let before = try files.map { try Data(contentsOf: URL(fileURLWithPath: home + "/d/ledger/" + $0)) }
        for command in ["merge e", "sync vault"] {
            let refused = try await asNobody("./credit --data-dir d " + command)
            #expect(refused.status == 1, "\(command): \(refused)")
            #expect(refused.stderr.contains("cannot be written"), "\(command): \(refused)")
            #expect(!refused.stdout.contains("Merged") && !refused.stdout.contains("Synced"), "\(refused)")
        }
        let after = try files.map { try Data(contentsOf: URL(fileURLWithPath: home + "/d/ledger/" + $0)) }
        #expect(after == before, "nothing written to the ledger")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home + "/vault") == [], "nothing sent")
    }
}

/// Issue 25 items 11, 14 and 15: mistakes are usage errors that name what is wrong, what a file holds is shown
/// escaped, and the words read as sentences.
@Suite struct EdgeWordsTests {
    /// Issue 35 item 11: a file that cannot be written where the user said is told in the user's terms: the folder
    /// named, never a temporary file's name or the system call that failed.
    @Test(arguments: [["report", "--out"], ["export", "--summary"]])
    func anOutputPathThatCannotBeWrittenIsSaidInPlainWords(_ command: [String]) async throws {
        let data = try DataDirectory()
        try await data.ok("charge", "debrief")
        let folder = try TemporaryDirectory()
        let missing = try await Credit.run(command + ["/nonexistent/dir/x.html"], dataDirectory: data.path)
        #expect(missing.status == 1, "\(missing)")
        #expect(missing.stderr.contains("the folder /nonexistent/dir does not exist"), "\(missing)")
        let onAFolder = try await Credit.run(command + [folder.path], dataDirectory: data.path)
        #expect(onAFolder.status == 1, "\(onAFolder)")
        #expect(onAFolder.stderr.contains("it is a folder: give the name of a file"), "\(onAFolder)")
        for result in [missing, onAFolder] {
            for word in [".tmp-", "create failed", "rename failed", "No such file", "Is a directory"] {
                #expect(!result.stderr.contains(word), "\(word): \(result)")
            }
        }
    }

    @Test func mergingAFileThatIsNotThereIsSaidInPlainWords() async throws {
        let data = try DataDirectory()
        try await data.ok("charge", "debrief")
        let result = try await data.credit("merge", "/nonexistent")
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr.contains("cannot open /nonexistent: there is no such file or folder; nothing was merged"),
            "\(result)")
        #expect(!result.stderr.contains("open failed"), "\(result)")
    }

    @Test func aProductThatIsNotTheAppsPackIsAUsageErrorNamingThePack() async throws {
        let data = try DataDirectory()
        let result = try await data.credit("topup", "--product", "com.example.other")
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("ai.voicedebrief.app.credit.500"), "\(result)")
        #expect(!result.stderr.contains("(unreadable)"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: data.path), "a mistake makes nothing")
    }

    @Test(arguments: ["ftp://x", "x", "http://", "file:///etc/passwd"])
    func aStoreURLThatIsNotHTTPIsAUsageError(_ url: String) async throws {
        let data = try DataDirectory()
        let result = try await data.credit("store", "use", "mockstore", "--url", url, "--secret-file", "/nonexistent")
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--url"), "\(result)")
    }

    @Test func amountsOfAThousandPoundsOrMoreHaveSeparators() async throws {
        let data = try DataDirectory()
        for _ in 1...200 { try await data.ok("topup") }
        await #expect(try data.ok("balance").stdout == "£1,005.00\n")
        let screen = try await data.ok("screen").stdout
        #expect(screen.contains("£1,005.00"), "\(screen)")
        // The screen shows the newest 50 entries and says where the rest are.
        #expect(screen.contains("The newest 50 of 201 entries"), "\(screen)")
        #expect(screen.contains("`credit entries` shows every entry"), "\(screen)")
        let all = try await data.ok("entries").stdout.split(separator: "\n")
        #expect(all.count == 202, "every entry and the heading")
    }

    @Test func verifyShowsAForeignFilesIdsEscaped() async throws {
        let data = try DataDirectory()
        try await data.ok("charge", "debrief")
        let other = try DataDirectory()
        try await other.ok("charge", "debrief")
        // Another account's file with an entry id that would clear the screen.
        let file = try other.ledgerFile
        var text = String(decoding: try other.bytes(file), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"id\":\"opening\"", with: "\"id\":\"open\\u001b[2Jing\"")
        let copy = data.temporary.path + "/copy.jsonl"
        try Data(text.utf8).write(to: URL(fileURLWithPath: copy))
        let result = try await data.credit("verify", copy)
        #expect(result.status == 1)
        #expect(!result.stdout.contains("\u{1B}"), "no control character reaches the terminal: \(result)")
    }

    /// Item 12: what a summary or a directory lacks is said in words, never as Foundation or Swift describe it.
    @Test func summariesThatCannotBeReadAreSaidInWords() async throws {
        let data = try DataDirectory()
        try await data.ok("charge", "debrief")
        let missing = try await data.credit("pnl", "--summaries", data.temporary.path + "/no-such-dir")
        #expect(missing.status == 1, "\(missing)")
        #expect(missing.stderr.contains("there is no such file or directory"), "\(missing)")
        let folder = data.temporary.path + "/summaries"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("{\"x\":1}".utf8).write(to: URL(fileURLWithPath: folder + "/a.json"))
        let bad = try await data.credit("pnl", "--summaries", folder)
        #expect(bad.stderr.contains("\"format\" is missing"), "\(bad)")
        for leak in ["NSCocoaErrorDomain", "Error Domain=", "DecodingError", "CodingKeys", "keyNotFound"] {
            #expect(!(missing.stderr + bad.stderr).contains(leak), "\(leak)")
        }
    }

    /// Item 15: a cut last line is a problem, not an entry checked; a copy of a device's file, named anything, is
    /// judged as that device's.
    @Test func verifyCountsACutLineAsAProblemAndACopyAsItsDevicesFile() async throws {
        let data = try DataDirectory()
        for _ in 1...3 { try await data.ok("charge", "debrief") }
        let bytes = try data.bytes(try data.ledgerFile)
        let copy = data.temporary.path + "/backup-copy.jsonl"
        try Data(bytes.dropLast(100)).write(to: URL(fileURLWithPath: copy))
        let result = try await data.credit("verify", copy)
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("Checked 3 entries from 1 device"), "\(result)")
        #expect(result.stdout.contains(":4: truncated: the last line is incomplete"), "\(result)")
        #expect(!result.stdout.contains("inserted"), "\(result)")
    }
}
