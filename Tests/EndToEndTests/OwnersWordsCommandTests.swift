import Foundation
import Testing

/// Issue 18 through the built `credit` binary: the entries in words a person reads, the price list in the note's
/// words, the grammar of counts, and a note read that needs its note.
@Suite struct OwnersWordsCommandTests {
    /// The "What" cell of the entries table's row that contains `id`.
    func what(_ table: String, id: String) -> String? {
        table.split(separator: "\n").first { $0.contains(id) }.map(String.init)
    }

    @Test func aTranscriptAFourFileSaveAndAPushAreInWords() async throws {
        let data = try DataDirectory()
        let transcript = try await data.ok("charge", "transcript", "--seconds", "10000", "--subject", "note-1")
        #expect(
            transcript.stdout.hasPrefix("Charged £5.01: Transcript, 167 minutes (note-1). Balance "), "\(transcript)")
        let save = try await data.ok("charge", "saveToVault", "--quantity", "4", "--subject", "note-1")
        #expect(save.stdout.hasPrefix("Charged £0.04: Note saved to a vault, 4 files (note-1). "), "\(save)")
        let push = try await data.ok("charge", "pushVault", "--quantity", "3", "--subject", "vault-1")
        #expect(push.stdout.hasPrefix("Charged £0.01: Vault pushed to a server, 3 items sent (vault-1). "), "\(push)")
        let entries = try await data.ok("entries").stdout
        #expect(entries.contains("Transcript, 167 minutes (note-1)"), "\(entries)")
        #expect(entries.contains("Note saved to a vault, 4 files (note-1)"), "\(entries)")
        #expect(entries.contains("Vault pushed to a server, 3 items sent (vault-1)"), "\(entries)")
        for key in ["transcript", "saveToVault", "pushVault", "×"] {
            #expect(!entries.contains(key), "the key \(key) shown in the entries: \(entries)")
        }
        // The credit screen's entries are the same words.
        let screen = try await data.ok("screen").stdout
        #expect(screen.contains("Transcript, 167 minutes (note-1)"), "\(screen)")
        // --json keeps the key and the number, exact.
        let json = try await data.ok("entries", "--json").jsonArray()
        #expect(json.first?["feature"] as? String == "pushVault" && int64(json.first?["quantity"]) == 3)
    }

    @Test func aDeclineNamesTheActInWords() async throws {
        let data = try DataDirectory()
        let id = try await #require(
            try data.ok("charge", "transcript", "--seconds", "61", "--json").jsonObject()["id"] as? String)
        let declined = try await data.ok("decline", id, "--reason", "test")
        #expect(
            declined.stdout.contains("given back for Transcript, 2 minutes; you said: it was a test"), "\(declined)")
        await #expect(try data.ok("entries").stdout.contains("Declined: Transcript, 2 minutes; it was a test"))
    }

    @Test func thePriceListIsInTheNotesWords() async throws {
        let data = try DataDirectory()
        let text = try await data.ok("prices").stdout
        for words in [
            "3p a minute of audio; a started minute is a whole one", "1p a file (a note is up to four)",
            "1p, when something was sent", "1p, when something was fetched",
            "1p, once for each note while the app is open",
        ] {
            #expect(text.contains(words), "\(words) missing from: \(text)")
        }
        let removals = try #require(text.split(separator: "\n").first { $0.contains("removeServer") })
        #expect(removals.contains("Removing a server, a recipient or one of your words"))
        #expect(removals.contains("1p each") && removals.contains("removeServer, removeRecipient, removeWord"))
        let json = try await data.ok("prices", "--json").jsonArray()
        let readNote = try #require(json.first { $0["key"] as? String == "readNote" })
        #expect(readNote["unit"] as? String == "1p, once for each note while the app is open")
        #expect(readNote["name"] as? String == "Note opened to read")
    }

    @Test func countsAndArticlesAgree() async throws {
        let a = try DataDirectory()
        let b = try DataDirectory()
        try await a.ok("charge", "debrief")
        try await b.ok("join", a.path)
        try await b.ok("charge", "send")
        let one = try await a.ok("merge", b.path)
        #expect(one.stdout.contains("Merged 1 new entry ("), "\(one)")
        #expect(one.stdout.contains("; 2 were already here") || one.stdout.contains("; 0 were already here"), "\(one)")
        let again = try await a.ok("merge", b.path)
        #expect(again.stdout.contains("Merged 0 new entries"), "\(again)")
        let verify = try await a.ok("verify").stdout
        #expect(verify.contains("from 2 devices;") && verify.contains("0 store receipts checked"), "\(verify)")
        let fresh = try DataDirectory()
        let joined = try await fresh.ok("join", a.path).stdout
        #expect(joined.contains("3 entries of 2 devices") && joined.contains("2 signed heads"), "\(joined)")
        // Declining the opening: "it is an opening".
        let opening = try await a.credit("decline", "opening", "--reason", "test")
        #expect(opening.status == 1)
        #expect(opening.stderr.contains("it is an opening"), "\(opening)")
    }

    @Test func aNoteReadWithoutItsNoteIsAUsageError() async throws {
        let data = try DataDirectory()
        try await data.ok("charge", "debrief")
        let before = try data.bytes(try data.ledgerFile)
        let charge = try await data.credit("charge", "readNote")
        #expect(charge.status == 64, "\(charge)")
        #expect(charge.stderr.contains("readNote needs --subject"), "\(charge)")
        let empty = try await data.credit("charge", "readNote", "--subject", "")
        #expect(empty.status == 64, "\(empty)")
        let json = try await data.credit("charge", "readNote", "--json")
        #expect(json.status == 64)
        #expect(json.stdout.contains("\"usage\""), "\(json)")
        // In `credit run`: the line is named and nothing at all is charged.
        let run = try await data.credit("run", "-", input: "debrief\nreadNote\nreadNote --subject n1\n")
        #expect(run.status == 64, "\(run)")
        #expect(run.stderr.contains("line 2"), "\(run)")
        #expect(run.stderr.contains("readNote needs --subject"), "\(run)")
        #expect(try data.bytes(try data.ledgerFile) == before, "nothing was charged")
        // With its note it is charged, once a session.
        await #expect(
            try data.ok("charge", "readNote", "--subject", "n1").stdout.hasPrefix(
                "Charged £0.01: Note opened to read (n1)"))
        // And --help says so.
        await #expect(try data.ok("charge", "--help").stdout.contains("readNote needs --subject"))
        await #expect(try data.ok("run", "--help").stdout.contains("readNote without"))
    }
}
