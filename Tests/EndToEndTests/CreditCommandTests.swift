import CreditLedger
import Foundation
import Testing

/// The built `credit` binary on temporary data directories: its output, its files and its exit codes.
@Suite struct CreditCommandTests {
    @Test func theBinaryIsBuilt() throws {
        let binary = try Credit.requireBinary()
        #expect(binary.hasSuffix("/credit"))
    }

    // MARK: balance and charging

    @Test func aNewLedgerShowsFivePounds() async throws {
        let data = try DataDirectory()
        let text = try await data.ok("balance")
        #expect(text.stdout == "£5.00\n")
        #expect(!text.stdout.contains("\u{1B}"), "no colour with NO_COLOR")
        let json = try await data.ok("balance", "--json").jsonObject()
        #expect(Set(json.keys) == ["balance", "formatted"])
        #expect(int64(json["balance"]) == 5_000_000)
        #expect(json["formatted"] as? String == "£5.00")
        #expect(text.stderr.contains("no account exists in \(data.path) yet"), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: data.path), "a command that only reads makes nothing")
        try await data.ok("charge", "debrief")
        #expect(FileManager.default.fileExists(atPath: try data.ledgerFile), "the first charge makes the account")
        await #expect(try data.ok("balance").stdout == "£4.95\n")
    }

    @Test func theDataDirectoryComesFromTheEnvironment() async throws {
        let home = try TemporaryDirectory()
        let fromVariable = try await Credit.run(
            ["charge", "debrief"], dataDirectory: nil, environment: ["CREDIT_DATA_DIR": home.file("a")])
        #expect(fromVariable.status == 0)
        #expect(FileManager.default.fileExists(atPath: home.file("a/device")))
        let fromXDG = try await Credit.run(
            ["charge", "send"], dataDirectory: nil, environment: ["XDG_DATA_HOME": home.file("xdg")])
        #expect(fromXDG.status == 0, "\(fromXDG)")
        #expect(FileManager.default.fileExists(atPath: home.file("xdg/voicedebrief/device")))
        let xdgBalance = try await Credit.run(
            ["balance"], dataDirectory: nil, environment: ["XDG_DATA_HOME": home.file("xdg")])
        #expect(xdgBalance.stdout == "£4.99\n")
        let both = try await Credit.run(
            ["balance"], dataDirectory: nil,
            environment: ["CREDIT_DATA_DIR": home.file("a"), "XDG_DATA_HOME": home.file("xdg")])
        #expect(both.stdout == "£4.95\n")
        let flag = try await Credit.run(
            ["balance"], dataDirectory: home.file("a"), environment: ["CREDIT_DATA_DIR": home.file("xdg/voicedebrief")])
        #expect(flag.stdout == "£4.95\n", "--data-dir wins")
    }

    @Test func chargeJSONIsTheEntryWritten() async throws {
        let data = try DataDirectory()
        let entry = try await data.ok("charge", "transcript", "--seconds", "76", "--subject", "note-1", "--json")
            .jsonObject()
        let id = try #require(entry["id"] as? String)
        #expect(!id.isEmpty)
        #expect(int64(entry["amount"]) == -60_000)
        #expect(int64(entry["balanceAfter"]) == 4_940_000)
        #expect(entry["feature"] as? String == "transcript")
        #expect(entry["subject"] as? String == "note-1")
        #expect(int64(entry["quantity"]) == 2)
        #expect(entry["kind"] as? String == "charge")
        #expect(entry["time"] as? String == "2026-11-29T12:00:00.000Z")
        let debrief = try await data.ok("charge", "debrief", "--subject", "note-1", "--json").jsonObject()
        #expect(int64(debrief["amount"]) == -50_000)
        await #expect(try data.balance() == 4_890_000)
        let text = try await data.ok("charge", "debrief")
        #expect(text.stdout.hasPrefix("Charged £0.05: Debrief. Balance £4.84. Entry "))
    }

    @Test func declineGivesBackOnceAndOnlyOnce() async throws {
        let data = try DataDirectory()
        let id = try await #require(try data.ok("charge", "debrief", "--json").jsonObject()["id"] as? String)
        let declined = try await data.ok("decline", id, "--reason", "not-usable")
        #expect(declined.stdout.contains("Declined. £0.05 given back for Debrief; you said: the result was not usable"))
        #expect(declined.stdout.contains("The charge stays in the ledger"))
        await #expect(try data.balance() == 5_000_000)
        let before = try data.bytes(try data.ledgerFile)
        let twice = try await data.credit("decline", id, "--reason", "test")
        #expect(twice.status == 1)
        #expect(twice.stderr.contains("already declined"))
        #expect(twice.stderr.contains("nothing was written"))
        #expect(try data.bytes(try data.ledgerFile) == before)
        let entries = try await data.ok("entries", "--json").jsonArray()
        #expect(entries.filter { $0["kind"] as? String == "charge" }.count == 1, "the charge stays")
        let refund = try #require(entries.first { $0["kind"] as? String == "refund" })
        #expect(refund["refersTo"] as? String == id)
        #expect(refund["reason"] as? String == "not-usable")
    }

    @Test func declineWithAnotherReasonNeedsWords() async throws {
        let data = try DataDirectory()
        let id = try await #require(try data.ok("charge", "send", "--json").jsonObject()["id"] as? String)
        await #expect(try data.credit("decline", id, "--reason", "other").status == 64)
        let refund = try await data.ok(
            "decline", id, "--reason", "other", "--text", "sent to the wrong person", "--json"
        )
        .jsonObject()
        #expect(refund["text"] as? String == "sent to the wrong person")
        #expect(refund["reason"] as? String == "other")
        let notACharge = try await data.credit("decline", "opening", "--reason", "test")
        #expect(notACharge.status == 1)
        #expect(notACharge.stderr.contains("only a charge can be declined"))
        let unknown = try await data.credit("decline", "no-such-entry", "--reason", "test")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no entry with id no-such-entry"))
    }

    @Test(arguments: ["record", "discardRecording", "listVault", "settings", "diagnostics", "creditScreen"])
    func unchargedActsAreRefused(_ act: String) async throws {
        let data = try DataDirectory()
        try await data.ok("charge", "debrief")
        let before = try data.bytes(try data.ledgerFile)
        let result = try await data.credit("charge", act)
        #expect(result.status == 1)
        #expect(result.stderr.contains("never charged"))
        #expect(try data.bytes(try data.ledgerFile) == before)
    }

    @Test func theNoteThatOpensItselfAndAPushThatMovedNothingAreNotCharged() async throws {
        let data = try DataDirectory()
        let automatic = try await data.ok("charge", "readNote", "--subject", "n1", "--auto-open", "--json").jsonObject()
        #expect(automatic["charged"] as? Bool == false)
        let push = try await data.ok("charge", "pushVault", "--quantity", "0")
        #expect(push.stdout.hasPrefix("Not charged: nothing moved"))
        await #expect(try data.balance() == 5_000_000)
    }

    // MARK: usage

    @Test(arguments: [
        ["frobnicate"],
        ["charge"],
        ["takings", "--days", "9"],
        ["takings", "--days", "seven"],
        ["balance", "--bogus"],
        ["balance", "extra"],
        ["decline", "some-id"],
        ["decline", "some-id", "--reason", "bored"],
        ["decline", "some-id", "--reason", "test", "--text", "words"],
        ["decline", "--reason", "test"],
        ["charge", "debrief", "--quantity", "two"],
        ["charge", "debrief", "--subject"],
        ["merge"],
        ["run"],
        ["verify", "--bogus"],
        ["entries", "--colour"],
    ])
    func usageErrorsExit64(_ arguments: [String]) async throws {
        let data = try DataDirectory()
        let result = try await Credit.run(arguments, dataDirectory: data.path)
        #expect(result.status == 64, "credit \(arguments.joined(separator: " ")): \(result)")
        #expect(result.stderr.hasPrefix("credit: "))
        #expect(result.stderr.contains("--help"))
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: [
        [], ["screen"], ["balance"], ["charge"], ["decline"], ["topup"], ["collect"], ["takings"], ["entries"],
        ["prices"], ["merge"], ["run"], ["verify"], ["upgrade"], ["store"], ["help"], ["help", "charge"],
    ])
    func helpOnEveryCommand(_ command: [String]) async throws {
        let data = try DataDirectory()
        for flag in ["--help", "-h"] where command.first != "help" || flag == "--help" {
            let arguments = command.first == "help" ? command : command + [flag]
            let result = try await Credit.run(arguments, dataDirectory: data.path)
            #expect(result.status == 0, "credit \(arguments.joined(separator: " ")): \(result)")
            #expect(result.stdout.contains("Usage"))
            if let name = command.last, name != "help" {
                #expect(
                    result.stdout.contains("credit \(name)")
                        || result.stdout.contains("credit [--data-dir DIR] \(name)"))
            }
        }
        #expect(!FileManager.default.fileExists(atPath: data.path), "asking for help creates no ledger")
    }

    // MARK: takings, entries, prices

    @Test func takingsJSONHasItsShape() async throws {
        let data = try DataDirectory()
        try await data.ok("charge", "debrief", now: "2026-11-01T09:00:00.000Z")
        let late = try await #require(
            try data.ok("charge", "debrief", "--json", now: "2026-11-28T09:00:00.000Z").jsonObject()["id"] as? String)
        try await data.ok("charge", "send", now: "2026-11-28T10:00:00.000Z")
        try await data.ok("decline", late, "--reason", "not-needed", now: "2026-11-28T11:00:00.000Z")
        let all = try await data.ok("takings", "--json").jsonArray()
        for line in all {
            #expect(Set(line.keys) == ["feature", "charges", "charged", "declined", "givenBack", "net"])
        }
        #expect(all.map { $0["feature"] as? String } == ["debrief", "send"])
        let debrief = try #require(all.first)
        #expect(int64(debrief["charges"]) == 2)
        #expect(int64(debrief["charged"]) == 100_000)
        #expect(int64(debrief["declined"]) == 1)
        #expect(int64(debrief["givenBack"]) == 50_000)
        #expect(int64(debrief["net"]) == 50_000)
        let week = try await data.ok("takings", "--days", "7", "--json").jsonArray()
        #expect(week.map { int64($0["charges"]) } == [1, 1])
        #expect(int64(week.first?["net"]) == 0)
        let month = try await data.ok("takings", "--days", "30", "--json").jsonArray()
        #expect(int64(month.first?["charges"]) == 2)
        let text = try await data.ok("takings", "--days", "7")
        #expect(text.stdout.contains("Takings by feature, the last 7 days"))
        #expect(text.stdout.contains("debrief"))
    }

    @Test func entriesAreNewestFirstWithTheBalanceAfterEach() async throws {
        let data = try DataDirectory()
        // The first command that writes makes the account: its opening is stamped then.
        try await data.ok("charge", "createVault", now: "2026-11-02T09:00:00.000Z")
        try await data.ok("charge", "send", now: "2026-11-03T09:00:00.000Z")
        try await data.ok("charge", "debrief", now: "2026-11-04T09:00:00.000Z")
        let entries = try await data.ok("entries", "--json").jsonArray()
        #expect(
            entries.map { $0["feature"] as? String ?? $0["kind"] as? String } == [
                "debrief", "send", "createVault", "opening",
            ])
        #expect(entries.map { int64($0["balanceAfter"]) } == [4_840_000, 4_890_000, 4_900_000, 5_000_000])
        #expect(
            entries.map { $0["time"] as? String } == [
                "2026-11-04T09:00:00.000Z", "2026-11-03T09:00:00.000Z", "2026-11-02T09:00:00.000Z",
                "2026-11-02T09:00:00.000Z",
            ])
        let text = try await data.ok("entries").stdout.split(separator: "\n").map(String.init)
        #expect(text.count == 5)
        #expect(text[1].contains("2026-11-04 09:00") && text[1].contains("Debrief") && text[1].contains("£4.84"))
        #expect(text[4].contains("Starting credit") && text[4].contains("£5.00"))
    }

    @Test func pricesAreMarkedAsPlaceholders() async throws {
        let data = try DataDirectory()
        let text = try await data.ok("prices").stdout
        #expect(text.contains("placeholders"))
        for key in ["transcript", "debrief", "createVault", "saveToVault", "pushVault", "readNote", "removeWord"] {
            #expect(text.contains(key))
        }
        #expect(text.contains("3p a minute of audio; a started minute is a whole one"))
        #expect(text.contains("Never charged: recording"))
        let json = try await data.ok("prices", "--json").jsonArray()
        #expect(json.count == 20)
        for item in json {
            #expect(item["placeholder"] as? Bool == true)
            let price = try #require(int64(item["price"]))
            #expect(price > 0 && price % 10_000 == 0)
        }
    }

    // MARK: run

    @Test func aNoteReadTwiceInOneRunIsChargedOnce() async throws {
        let data = try DataDirectory()
        let acts = """
            # one session
            readNote --subject note-1
            charge readNote --subject note-1
            readNote --subject note-2
            transcript --seconds 76 --subject "note 3"

            readNote --subject note-1 --auto-open
            """
        let temporary = try TemporaryDirectory()
        try acts.write(toFile: temporary.file("acts"), atomically: true, encoding: .utf8)
        let result = try await data.ok("run", temporary.file("acts"))
        // Each act in words, by the price list's name (issue 18), not by its key.
        let read = "Note opened to read"
        #expect(result.stdout.contains("line 2: \(read) (note-1) -£0.01"), "\(result)")
        #expect(result.stdout.contains("line 3: \(read): not charged, already charged once while the app is open."))
        #expect(result.stdout.contains("line 4: \(read) (note-2) -£0.01"))
        #expect(result.stdout.contains("line 5: Transcript, 2 minutes (note 3) -£0.06"), "\(result)")
        #expect(result.stdout.contains("line 7: \(read): not charged"))
        #expect(!result.stdout.contains("readNote"))
        await #expect(try data.balance() == 4_920_000)
        // A second run is a new session: note-1 is charged again. Standard input works too.
        let again = try await data.ok("run", "-", "--json", input: "readNote --subject note-1\n").jsonObject()
        let acts2 = try #require(again["acts"] as? [[String: Any]])
        #expect(acts2.count == 1 && acts2.first?["entry"] != nil)
        #expect(int64(again["balance"]) == 4_910_000)
    }

    @Test(arguments: [
        ("debrief\nsend\nrecord\n", 1, "line 3", "never charged"),
        // Issue 14: a mistake in an act (a quantity out of range, an unknown key) is exit 64, as in `credit charge`.
        ("debrief\nsend\nsaveToVault --quantity 9\n", 64, "line 3", "from 1 to 4"),
        ("debrief\n\nteleport\n", 64, "line 3", "no price"),
        ("debrief\nsend --bogus\n", 64, "line 2", "unknown option"),
        ("debrief\nsend \"unclosed\n", 64, "line 2", "quote"),
    ])
    func aBadLineChargesNothingAndIsNamed(_ acts: String, _ status: Int32, _ line: String, _ words: String) async throws
    {
        let data = try DataDirectory()
        try await data.ok("charge", "debrief")
        let before = try data.bytes(try data.ledgerFile)
        let result = try await data.credit("run", "-", input: acts)
        #expect(result.status == status, "\(result)")
        #expect(result.stderr.contains(line))
        #expect(result.stderr.contains(words))
        #expect(result.stderr.contains("nothing was charged"))
        #expect(try data.bytes(try data.ledgerFile) == before)
    }

    // MARK: top-up and the screen

    @Test func aSimulatedTopUpSaysNoMoneyWasTaken() async throws {
        let data = try DataDirectory()
        let result = try await data.ok("topup")
        #expect(result.stdout.contains("(simulated, no money taken)"))
        await #expect(try data.balance() == 10_000_000)
        let entries = try await data.ok("entries", "--json").jsonArray()
        let topUp = try #require(entries.first)
        #expect(topUp["kind"] as? String == "topup")
        #expect(topUp["text"] as? String == "Top-up (simulated, no money taken)")
        #expect(int64(topUp["amount"]) == 5_000_000)
        let screen = try await data.ok("screen").stdout
        #expect(screen.contains("Top-up (simulated, no money taken)"))
        #expect(screen.contains("The store is simulated: no money is taken."))
        await #expect(try data.ok("verify").status == 0)
    }

    @Test func theScreenBelowZeroSaysHowFarOverAndThatNothingIsBlocked() async throws {
        let data = try DataDirectory()
        let acts = String(repeating: "createVault\n", count: 50) + "debrief\ntranscript --seconds 61\n"
        try await data.ok("run", "-", input: acts)
        await #expect(try data.balance() == -110_000)
        let screen = try await data.ok()
        #expect(screen.stdout.contains("-£0.11"))
        #expect(
            screen.stdout.contains(
                "You are £0.11 over your credit. Nothing is blocked, and nothing will be. Top up when it feels fair."))
        #expect(!screen.stdout.contains("\u{1B}"), "no colour with NO_COLOR")
        for section in [
            "Balance", "Used", "Topped up", "Top up", "Takings by feature", "Entries", "newest first", "Prices",
            "placeholders",
        ] {
            #expect(screen.stdout.contains(section), "the screen shows \(section)")
        }
        let json = try await data.ok("screen", "--json").jsonObject()
        #expect(json["belowZero"] as? Bool == true)
        #expect(
            (json["message"] as? String)?.hasSuffix(
                " Nothing is blocked, and nothing will be. Top up when it feels fair.") == true)
        // And it still charges.
        await #expect(try data.ok("charge", "debrief").stdout.contains("Balance -£0.16"))
    }

    @Test func aboveZeroTheScreenSaysNothingAboutIt() async throws {
        let data = try DataDirectory()
        let screen = try await data.ok("screen").stdout
        #expect(screen.contains("£5.00"))
        #expect(!screen.contains("Nothing is blocked"))
        #expect(!screen.contains("over your credit"))
    }

    // MARK: merge

    @Test func mergingTwoDataDirectories() async throws {
        let a = try DataDirectory()
        let b = try DataDirectory()
        try await a.ok("charge", "debrief")
        // The second device shares the owner's keys.
        try FileManager.default.createDirectory(atPath: b.path, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: a.path + "/keys", toPath: b.path + "/keys")
        try await b.ok("charge", "createVault")
        try await b.ok("charge", "send")
        let merged = try await a.ok("merge", try b.ledgerFile)
        #expect(merged.stdout.contains("Merged 3 new entries"))
        await #expect(try a.balance() == 5_000_000 - 50_000 - 110_000)
        let again = try await a.ok("merge", try b.ledgerFile, "--json").jsonObject()
        #expect((again["added"] as? [String: Any])?.isEmpty == true)
        #expect(int64(again["alreadyPresent"]) == 3)
        await #expect(try a.balance() == 4_840_000)
        await #expect(try a.ok("verify").stdout.contains("All holds"))
        // The other way round gives the same balance.
        try await b.ok("merge", try a.ledgerFile)
        await #expect(try b.balance() == 4_840_000)
    }

    @Test func aConflictingMergeExitsOneAndSaysWhy() async throws {
        let a = try DataDirectory()
        let b = try DataDirectory()
        try await a.ok("charge", "debrief")
        try await b.ok("charge", "debrief")
        // B's file with its charge's id changed to A's: a conflict, by hand.
        let aCharge = try await #require(try a.ok("entries", "--json").jsonArray().first?["id"] as? String)
        let bCharge = try await #require(try b.ok("entries", "--json").jsonArray().first?["id"] as? String)
        var text = String(decoding: try b.bytes(try b.ledgerFile), as: UTF8.self)
        text = text.replacingOccurrences(of: bCharge, with: aCharge).replacingOccurrences(
            of: "\"amount\":-50000", with: "\"amount\":-60000")
        let copy = try TemporaryDirectory()
        try text.write(toFile: copy.file("b.jsonl"), atomically: true, encoding: .utf8)
        let result = try await a.credit("merge", copy.file("b.jsonl"))
        #expect(result.status == 1)
        // Issue 12: B is another account (its own keys), so its file is refused whole, before any conflict is
        // looked for, and the message says how a device joins.
        #expect(result.stderr.contains("line 1") && result.stderr.contains("credit join"))
        await #expect(try a.balance() == 4_950_000)
    }

    // MARK: damage

    @Test func aBadMiddleLineStopsTheCommandAndTheFileIsUntouched() async throws {
        let data = try DataDirectory()
        try await data.ok("charge", "debrief")
        try await data.ok("charge", "send")
        let file = try data.ledgerFile
        var lines = String(decoding: try data.bytes(file), as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        lines[1] = "this is not an entry"
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
        let damaged = try data.bytes(file)
        for command in [["balance"], ["charge", "debrief"], ["screen"], ["entries", "--json"]] {
            let result = try await Credit.run(command, dataDirectory: data.path)
            #expect(result.status == 1, "\(command): \(result)")
            #expect(result.stderr.contains("line 2"))
            #expect(result.stderr.contains(file))
            #expect(result.stderr.contains("left untouched"))
            #expect(try data.bytes(file) == damaged, "byte for byte unchanged")
        }
        #expect(!FileManager.default.fileExists(atPath: data.path + "/torn"))
    }

    @Test func aTornTailIsSetAsideAndReported() async throws {
        let data = try DataDirectory()
        try await data.ok("charge", "debrief")
        let file = try data.ledgerFile
        let whole = try data.bytes(file)
        let tail = Array(#"{"id":"half-written","device":"#.utf8)
        try Data(whole + tail).write(to: URL(fileURLWithPath: file))
        let result = try await data.ok("balance")
        #expect(result.stdout == "£4.95\n")
        #expect(result.stderr.contains("moved aside"))
        #expect(result.stderr.contains("\(tail.count) bytes"))
        #expect(try data.bytes(file) == whole)
        let torn = try FileManager.default.contentsOfDirectory(atPath: data.path + "/torn")
        #expect(torn.count == 1)
        #expect(try data.bytes(data.path + "/torn/" + (torn.first ?? "")) == tail)
        // Reported once; the next command is quiet, and the chain still verifies.
        await #expect(try data.ok("balance").stderr.isEmpty)
        await #expect(try data.ok("verify").status == 0)
    }

    // MARK: verify and upgrade

    @Test func verifyIsCleanOnAnUntouchedLedgerAndNamesTampering() async throws {
        let data = try DataDirectory()
        for key in ["debrief", "send", "createVault", "importFile"] { try await data.ok("charge", key) }
        try await data.ok("charge", "readNote", "--subject", "note-1")  // a note read needs its note (issue 18)
        let clean = try await data.ok("verify")
        #expect(clean.stdout.contains("Checked 6 entries from 1 device; balance £4.82"))
        #expect(clean.stdout.contains("All holds"))
        let cleanJSON = try await data.ok("verify", "--json").jsonObject()
        #expect(cleanJSON["ok"] as? Bool == true)
        #expect((cleanJSON["problems"] as? [Any])?.isEmpty == true)

        let file = try data.ledgerFile
        var text = String(decoding: try data.bytes(file), as: UTF8.self)
        var lines = text.split(separator: "\n").map(String.init)
        lines[2] = lines[2].replacingOccurrences(of: "\"amount\":-10000", with: "\"amount\":-100")
        text = lines.joined(separator: "\n") + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let tampered = try await data.credit("verify")
        #expect(tampered.status == 1)
        #expect(tampered.stdout.contains("\(file):3: changed"))
        let json = try await data.credit("verify", "--json").jsonObject()
        #expect(json["ok"] as? Bool == false)
        let problems = try #require(json["problems"] as? [[String: Any]])
        #expect(problems.count == 1)
        #expect(problems.first?["kind"] as? String == "changed")
        #expect(int64(problems.first?["line"]) == 3)
        #expect(problems.first?["file"] as? String == file)
    }

    @Test func verifyNamesACutAndADeletion() async throws {
        let data = try DataDirectory()
        for _ in 0..<12 { try await data.ok("charge", "send") }
        let file = try data.ledgerFile
        let lines = String(decoding: try data.bytes(file), as: UTF8.self).split(separator: "\n").map(String.init)
        try Data((lines.dropLast(10).joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let cut = try await data.credit("verify", "--json")
        #expect(cut.status == 1)
        let cutProblems = try #require(try cut.jsonObject()["problems"] as? [[String: Any]])
        #expect(cutProblems.map { $0["kind"] as? String } == ["truncated"])
        #expect(cutProblems.map { int64($0["line"]) } == [3])

        var deleted = lines
        deleted.remove(at: 5)
        try Data((deleted.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let result = try await data.credit("verify")
        #expect(result.status == 1)
        #expect(result.stdout.contains("\(file):6: deleted"))
    }

    @Test func aCutLedgerUsedAgainIsNotBlockedAndStillFailsVerify() async throws {
        let data = try DataDirectory()
        for _ in 0..<6 { try await data.ok("charge", "send") }
        let file = try data.ledgerFile
        let lines = String(decoding: try data.bytes(file), as: UTF8.self).split(separator: "\n").map(String.init)
        try Data((lines.dropLast(2).joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        // The app carries on (nothing is ever blocked) and says why the head is not kept up...
        for _ in 0..<3 {
            let charged = try await data.ok("charge", "send")
            #expect(charged.stderr.contains("signed head is not kept up"), "\(charged.stderr)")
        }
        // ... so the cut cannot be covered up by writing entries over it.
        let result = try await data.credit("verify", "--json")
        #expect(result.status == 1)
        let problems = try #require(try result.jsonObject()["problems"] as? [[String: Any]])
        #expect(problems.map { $0["kind"] as? String } == ["changed"], "\(problems)")
    }

    @Test func verifyChecksNamedFiles() async throws {
        let data = try DataDirectory()
        try await data.ok("charge", "send")
        let result = try await data.ok("verify", try data.ledgerFile)
        #expect(result.stdout.contains("All holds"))
        let missing = try await data.credit("verify", data.path + "/no-such.jsonl")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no such file"))
    }

    @Test func upgradeSignsALedgerMadeBeforeSigning() async throws {
        let data = try DataDirectory()
        let old = try Ledger(
            directory: data.path, clock: FixedClock(Timestamp(iso8601: "2026-11-01T09:00:00.000Z")!),
            ids: SequentialIDs(prefix: "old"), authenticator: nil)
        try old.append(EntryDraft(id: "c-1", kind: .charge, feature: "debrief", amount: MicroCredits(-50_000)))
        try old.append(EntryDraft(id: "c-2", kind: .charge, feature: "send", amount: MicroCredits(-10_000)))
        let file = old.path(forDevice: old.device)
        let original = try data.bytes(file)

        let balance = try await data.ok("balance")
        #expect(balance.stdout == "£4.94\n")
        #expect(balance.stderr.contains("made before signing existed; `credit upgrade` signs it"))
        #expect(try data.bytes(file) == original, "never signed silently")
        let unverified = try await data.credit("verify", "--json")
        #expect(unverified.status == 1)
        #expect(
            try unverified.jsonObject()["balance"] as? Int == 4_940_000,
            "verify's balance is balance's, each entry said to be unsigned: \(unverified)")
        let said = try await data.credit("verify")
        #expect(said.stdout.contains("Checked 3 entries from 1 device; balance £4.94;"), "\(said)")
        #expect(
            (try unverified.jsonObject()["problems"] as? [[String: Any]])?.allSatisfy {
                $0["kind"] as? String == "unsigned"
            } == true)

        let upgrade = try await data.ok("upgrade")
        #expect(upgrade.stdout.contains("Signed 3 entries of \(file)"))
        #expect(upgrade.stdout.contains("The unsigned file is kept as \(file).unsigned-"))
        let backups = try FileManager.default.contentsOfDirectory(atPath: data.path + "/ledger").filter {
            $0.contains(".unsigned-")
        }
        #expect(backups.count == 1)
        #expect(try data.bytes(data.path + "/ledger/" + (backups.first ?? "")) == original)
        await #expect(try data.ok("verify").stdout.contains("All holds"))
        await #expect(try data.balance() == 4_940_000)
        try await data.ok("charge", "debrief")
        await #expect(try data.ok("verify").status == 0)
        let again = try await data.ok("upgrade")
        #expect(again.stdout.contains("already signed"))
    }
}

/// Issue 3, "How it is checked", through the command: tamper with a signed ledger of 20 entries made by `credit`,
/// and `credit verify` names each tampering with its kind and line (exit 1); untouched and merged ledgers exit 0.
@Suite struct CreditVerifyTamperTests {
    /// A data directory whose ledger has 20 entries: the opening and 19 charges, on lines 1 to 20.
    private func twentyEntries(_ data: DataDirectory, acts: Int = 19) async throws {
        let lines = (1...acts).map { "send --subject note-\($0)" }.joined(separator: "\n")
        try await data.ok("run", "-", input: lines + "\n")
    }

    private func lines(_ file: String) throws -> [String] {
        String(decoding: try #require(FileManager.default.contents(atPath: file)), as: UTF8.self)
            .split(separator: "\n").map(String.init)
    }

    private func write(_ lines: [String], to file: String) throws {
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
    }

    /// The problems `credit verify --json` reports, as `kind@line`, and its exit status.
    private func verify(_ data: DataDirectory) async throws -> (status: Int32, found: [String]) {
        let result = try await data.credit("verify", "--json")
        let problems = try #require(try result.jsonObject()["problems"] as? [[String: Any]], "\(result)")
        return (
            result.status,
            problems.map { "\($0["kind"] as? String ?? "?")@\(int64($0["line"]).map(String.init) ?? "-")" }
        )
    }

    @Test func anUntouchedLedgerVerifiesClean() async throws {
        let data = try DataDirectory()
        try await twentyEntries(data)
        let result = try await data.ok("verify")
        #expect(result.stdout.contains("Checked 20 entries from 1 device;"))
        #expect(result.stdout.contains("All holds"))
    }

    @Test(arguments: [
        ("change one amount", ["changed@8"]),
        ("change one byte", ["changed@12"]),
        ("delete a middle entry", ["deleted@10"]),
        ("swap two entries", ["reordered@6"]),
        ("cut off the last entry", ["truncated@19"]),
        ("cut off the last ten", ["truncated@10"]),
        ("splice in an entry from another ledger", ["inserted@8"]),
        ("fork", ["forked@21"]),
    ])
    func verifyNamesEachTampering(_ tampering: String, _ expected: [String]) async throws {
        let data = try DataDirectory()
        try await twentyEntries(data)
        let file = try data.ledgerFile
        var lines = try lines(file)
        #expect(lines.count == 20)
        switch tampering {
        case "change one amount":
            lines[7] = lines[7].replacingOccurrences(of: "\"amount\":-10000", with: "\"amount\":-1000")
        case "change one byte":
            lines[11] = lines[11].replacingOccurrences(of: "note-11", with: "note-71")
        case "delete a middle entry":
            lines.remove(at: 9)
        case "swap two entries":
            lines.swapAt(5, 6)
        case "cut off the last entry":
            lines.removeLast()
        case "cut off the last ten":
            lines.removeLast(10)
        case "splice in an entry from another ledger":
            let other = try DataDirectory()
            try await twentyEntries(other, acts: 4)
            lines.insert(try self.lines(try other.ledgerFile)[2], at: 7)
        case "fork":
            // A copy of the data directory at 10 entries goes its own way; its #11 lands in the live file.
            let copy = try DataDirectory()
            let live = try DataDirectory()
            try await twentyEntries(live, acts: 9)
            try FileManager.default.copyItem(atPath: live.path, toPath: copy.path)
            try await copy.ok("charge", "createVault", "--subject", "elsewhere")
            try await twentyEntries(live, acts: 10)
            let forked = try self.lines(try copy.ledgerFile)[10]
            let liveLines = try self.lines(try live.ledgerFile)
            try write(liveLines + [forked], to: try live.ledgerFile)
            let (status, found) = try await verify(live)
            #expect(status == 1)
            #expect(found == expected)
            return
        default:
            Issue.record("unknown tampering \(tampering)")
        }
        try write(lines, to: file)
        let (status, found) = try await verify(data)
        #expect(status == 1, "\(tampering)")
        #expect(found == expected, "\(tampering)")
        let text = try await data.credit("verify")
        #expect(text.status == 1)
        #expect(text.stdout.contains(" problem:") || text.stdout.contains(" problems:"), "\(text)")
        let kind = try #require(expected.first?.split(separator: "@").first)
        let line = try #require(expected.first?.split(separator: "@").last)
        #expect(text.stdout.contains("\(file):\(line): \(kind): "), "\(text)")
    }

    @Test func aLineDamagedBeyondReadingIsNamedAndLeftAsItIs() async throws {
        let data = try DataDirectory()
        try await twentyEntries(data)
        let file = try data.ledgerFile
        var lines = try lines(file)
        lines[11] = "[" + lines[11].dropFirst()
        try write(lines, to: file)
        let damaged = try #require(FileManager.default.contents(atPath: file))
        // The ledger will not open, but verify still checks the files and names the line.
        await #expect(try data.credit("balance").status == 1)
        let (status, found) = try await verify(data)
        #expect(status == 1)
        #expect(found == ["unreadable@12"])
        let text = try await data.credit("verify")
        #expect(text.stderr.contains("line 12 cannot be read"))
        #expect(text.stdout.contains("\(file):12: unreadable: "))
        // 20 lines, 19 of them entries: the unreadable one is a problem, not an entry checked (issue 25 item 15).
        #expect(text.stdout.contains("Checked 19 entries"), "\(text)")
        #expect(FileManager.default.contents(atPath: file) == damaged, "byte for byte unchanged")
    }

    @Test func restoringAnOlderCopyIsNamed() async throws {
        let data = try DataDirectory()
        try await twentyEntries(data, acts: 9)
        let file = try data.ledgerFile
        let older = try #require(FileManager.default.contents(atPath: file))
        try await twentyEntries(data, acts: 5)
        try older.write(to: URL(fileURLWithPath: file))
        let (status, found) = try await verify(data)
        #expect(status == 1)
        #expect(found == ["truncated@10"])
        await #expect(try data.credit("verify").stdout.contains("an older copy was restored"))
    }

    @Test func anEntryDuplicatedWithOtherContentIsNamed() async throws {
        // Two devices of one owner (the same keys) each write an entry with one id and other content.
        let a = try DataDirectory()
        let b = try DataDirectory()
        try await twentyEntries(a, acts: 4)
        try FileManager.default.createDirectory(atPath: b.path, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: a.path + "/keys", toPath: b.path + "/keys")
        try await b.ok("charge", "debrief")
        try await b.ok("charge", "send")
        let aCharge = try #require(try lines(try a.ledgerFile)[2].components(separatedBy: "\"id\":\"").last?.prefix(36))
        // B's ledger is rewritten through the library with that id, validly MACed with the shared key.
        let bFile = try b.ledgerFile
        var bLines = try lines(bFile)
        let bCharge = try #require(bLines[2].components(separatedBy: "\"id\":\"").last?.prefix(36))
        bLines.removeLast()
        try write(bLines, to: bFile)
        let keys = try LedgerKeys.load(from: b.path)
        let ledger = try Ledger(
            directory: b.path, clock: FixedClock(Timestamp(iso8601: "2026-11-29T12:00:00.000Z")!),
            authenticator: try keys.makeAuthenticator())
        try ledger.append(
            EntryDraft(id: String(aCharge), kind: .charge, feature: "createVault", amount: MicroCredits(-100_000)))
        #expect(String(bCharge) != String(aCharge))
        try FileManager.default.copyItem(atPath: bFile, toPath: a.path + "/ledger/" + (try b.device) + ".jsonl")
        let result = try await a.credit("verify", "--json")
        #expect(result.status == 1)
        let problems = try #require(try result.jsonObject()["problems"] as? [[String: Any]])
        #expect(problems.count == 1)
        #expect(problems.first?["kind"] as? String == "duplicated")
        #expect(int64(problems.first?["line"]) == 3)
        // Files are read in the order of their (random) device names: the second of the two is named, with the first.
        let files = [try a.ledgerFile, a.path + "/ledger/" + (try b.device) + ".jsonl"]
        let named = try #require(problems.first?["file"] as? String)
        #expect(files.contains(named))
        let other = try #require(files.first { $0 != named })
        #expect((problems.first?["detail"] as? String)?.contains(other + ":3") == true)
    }

    @Test func aCorrectMergeOfTwoDevicesVerifiesClean() async throws {
        let a = try DataDirectory()
        let b = try DataDirectory()
        try await twentyEntries(a, acts: 9)
        try FileManager.default.createDirectory(atPath: b.path, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: a.path + "/keys", toPath: b.path + "/keys")
        try await twentyEntries(b, acts: 9)
        try await a.ok("merge", try b.ledgerFile)
        let result = try await a.ok("verify")
        #expect(result.stdout.contains("Checked 20 entries from 2 devices;"))
        #expect(result.stdout.contains("All holds"))
    }
}

/// Colour only on a terminal, and never with NO_COLOR: run under a pseudo-terminal with `script` (util-linux).
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) from util-linux"))
struct CreditColourTests {
    /// Runs `credit ARGS` on a pseudo-terminal, returning what it printed.
    /// Runs `credit ARGS` on a pseudo-terminal, returning what it printed (through the suites' own spawn, not
    /// Foundation's `Process`, whose start crashed once copying its arguments while other tests ran).
    private func onTerminal(_ arguments: String, data: DataDirectory, noColor: String?) async throws -> String {
        try await onTerminal([arguments], data: data, noColor: noColor)
    }

    /// Runs `credit ARGS` for each of `commands`, one after another in one terminal session.
    private func onTerminal(_ commands: [String], data: DataDirectory, noColor: String?) async throws -> String {
        let binary = try Credit.requireBinary()
        var env = ProcessInfo.processInfo.environment
        for name in ["NO_COLOR", "CREDIT_DATA_DIR", "XDG_DATA_HOME"] { env[name] = nil }
        env["TERM"] = "xterm-256color"
        env["CREDIT_NOW"] = "2026-11-29T12:00:00.000Z"
        if let noColor { env["NO_COLOR"] = noColor }
        let result = try await ChildProcess.run(
            "/usr/bin/script",
            [
                "-qec", commands.map { "'\(binary)' --data-dir '\(data.path)' \($0)" }.joined(separator: " && "),
                "/dev/null",
            ],
            environment: env, timeout: 60)
        #expect(result.status == 0, "\(result)")
        return result.stdout + result.stderr
    }

    @Test func aTerminalGetsColourAndTheBalanceBelowZeroIsWarmer() async throws {
        let data = try DataDirectory()
        try await data.ok("run", "-", input: String(repeating: "createVault\n", count: 51))
        let balance = try await onTerminal("balance", data: data, noColor: nil)
        #expect(balance.contains("\u{1B}[38;5;208m-£0.10\u{1B}[0m"), "the warmer colour: \(balance)")
        let screen = try await onTerminal("screen", data: data, noColor: nil)
        #expect(screen.contains("\u{1B}["))
        #expect(screen.contains("Nothing is blocked, and nothing will be. Top up when it feels fair."))
    }

    @Test(arguments: ["1", "yes"])
    func noColourWithNO_COLOR(_ value: String) async throws {
        let data = try DataDirectory()
        try await data.ok("run", "-", input: String(repeating: "createVault\n", count: 51))
        // The five commands one after another on one terminal (one `script` session): none of them colours.
        let commands = ["balance", "screen", "entries", "takings", "verify"]
        let output = try await onTerminal(commands, data: data, noColor: value)
        #expect(!output.contains("\u{1B}["), "\(commands) with NO_COLOR=\(value): \(output)")
        for words in ["VoiceDebrief credit", "Vault created", "Takings by feature", "All holds"] {
            #expect(output.contains(words), "every command ran: \(words) is missing from \(output)")
        }
    }

    @Test func noColourForJSONEvenOnATerminal() async throws {
        let data = try DataDirectory()
        try await data.ok("run", "-", input: String(repeating: "createVault\n", count: 51))
        let output = try await onTerminal("balance --json", data: data, noColor: nil)
        #expect(!output.contains("\u{1B}["))
        #expect(output.contains("\"formatted\":\"-£0.10\""))
    }
}
