import CreditLedger
import Testing
import VoiceDebriefCredit

/// Issue 18: the price list says what the owner's note says. The note's table is held here as the note writes it
/// (`../shared/seed/credit.md`, "The prices, all placeholders"), and every row of the price list is compared with
/// it: what, the price in words, the key(s), and the price in micro-credits read from the words.
@Suite struct OwnersTableTests {
    static let table = """
        | What | Placeholder | Key in the ledger |
        |---|---|---|
        | A transcript | 3p a minute of audio; a started minute is a whole one | `transcript` |
        | A debrief | 5p | `debrief` |
        | A clean text | 1p a passage | `cleanPassage` |
        | Opening an audio file | 1p | `importFile` |
        | Adding one of your words | 1p | `glossaryWord` |
        | Creating a vault | 10p | `createVault` |
        | Adding a vault made elsewhere | 1p | `addVault` |
        | Saving a note to a vault | 1p a file (a note is up to four) | `saveToVault` |
        | Sending a note to a recipient | 1p | `send` |
        | Adding a recipient | 1p | `addRecipient` |
        | Pushing a vault to a server | 1p, when something was sent | `pushVault` |
        | Pulling a vault from a server | 1p, when something was fetched | `pullVault` |
        | Adding a server | 1p | `addServer` |
        | Opening a note to read it | 1p, once for each note while the app is open | `readNote` |
        | Opening a file in a vault | 1p | `readVaultFile` |
        | Deleting a note | 1p | `deleteNote` |
        | Forgetting a vault | 1p | `removeVault` |
        | Removing a server, a recipient or one of your words | 1p each | `removeServer, removeRecipient, removeWord` |
        """

    /// The table's rows, cells trimmed, backticks off the keys.
    static var rows: [PriceRow] {
        table.split(separator: "\n").dropFirst(2).map { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let keys = cells[2].replacingOccurrences(of: "`", with: "").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }
            return PriceRow(what: cells[0], price: cells[1], keys: keys)
        }
    }

    /// The whole pence a price's words start with (`3p a minute` is 3).
    static func pence(_ words: String) -> Int64? { Int64(words.prefix { $0.isNumber }) }

    @Test func everyRowIsTheNotesWordForWord() {
        let prices = VoiceDebriefPrices()
        #expect(Self.rows.count == 18)
        #expect(prices.rows.count == Self.rows.count)
        for (ours, note) in zip(prices.rows, Self.rows) {
            #expect(ours.keys == note.keys)
            #expect(ours.what == note.what, "\(note.keys)")
            #expect(ours.price == note.price, "\(note.keys)")
        }
    }

    @Test(arguments: rows)
    func everyKeysPriceIsTheRowsFigure(_ row: PriceRow) throws {
        let pence = try #require(Self.pence(row.price), "\(row.price) starts with no figure")
        #expect(row.price.dropFirst(String(pence).count).hasPrefix("p"))
        for key in row.keys {
            let item = try #require(VoiceDebriefPrices().item(for: key), "\(key) is missing")
            #expect(item.price == MicroCredits(pence * 10_000), "\(key)")
            #expect(item.isPlaceholder)
            // The words and the unit agree: per minute, per file, when something moved, once per note.
            let unit: PricingUnit
            switch key {
            case "transcript": unit = .perStartedMinute
            case "saveToVault": unit = .perItem(maximum: 4)
            case "pushVault", "pullVault": unit = .whenSomethingMoved
            default: unit = .each
            }
            #expect(item.unit == unit, "\(key)")
            #expect(item.oncePerSubjectPerSession == row.price.contains("once for each note"), "\(key)")
        }
    }

    /// Issue 26: the P&L, the takings and the page name each feature in the note's words, its row's "What" (the
    /// three removals each by its own part of the shared row).
    @Test func everyFeatureIsNamedInTheNotesWords() {
        let names = VoiceDebriefPrices().featureNames
        #expect(names.count == VoiceDebriefPrices().items.count)
        for row in Self.rows where row.keys.count == 1 {
            #expect(names[row.keys[0]] == row.what, "\(row.keys[0])")
        }
        #expect(names["removeServer"] == "Removing a server" && names["removeWord"] == "Removing one of your words")
    }

    @Test func theScreenAndTheCommandShowTheRows() {
        // `credit prices` and the screen print `rows`: one line per row of the note, the three removals on one.
        let keys = VoiceDebriefPrices().rows.flatMap(\.keys)
        #expect(keys == VoiceDebriefPrices().items.map(\.key), "every item on exactly one row, in order")
    }
}

/// Issue 18: entries in words a person reads, each act by its name in the price list.
@Suite struct EntryWordsTests {
    func charge(_ feature: String, quantity: Int64 = 1, subject: String? = nil) -> LedgerEntry {
        LedgerEntry(
            id: "c", device: "d", sequence: 2, time: Timestamp(milliseconds: 0), kind: .charge, feature: feature,
            subject: subject, quantity: quantity, amount: MicroCredits(-10_000), balanceAfter: .zero)
    }

    @Test func aTranscriptSaysItsMinutes() {
        #expect(EntryWords.describe(charge("transcript", quantity: 167)) == "Transcript, 167 minutes")
        #expect(EntryWords.describe(charge("transcript", quantity: 1, subject: "n")) == "Transcript, 1 minute (n)")
    }

    @Test func aSaveOfFourFilesAndAPush() {
        #expect(EntryWords.describe(charge("saveToVault", quantity: 4)) == "Note saved to a vault, 4 files")
        #expect(EntryWords.describe(charge("saveToVault", quantity: 1)) == "Note saved to a vault, 1 file")
        #expect(EntryWords.describe(charge("pushVault", quantity: 3)) == "Vault pushed to a server, 3 items sent")
        #expect(EntryWords.describe(charge("pullVault", quantity: 1)) == "Vault pulled from a server, 1 item fetched")
    }

    @Test func everyKeyHasANameThatIsNotTheKey() {
        for item in VoiceDebriefPrices().items {
            let words = EntryWords.describe(charge(item.key))
            #expect(!words.contains(item.key), "\(item.key): \(words)")
            #expect(words.first?.isUppercase == true, "\(item.key): \(words)")
        }
    }

    @Test func aFeatureThePriceListDoesNotKnowIsShownByItsKey() {
        #expect(EntryWords.describe(charge("sgitPush")) == "sgitPush")
        #expect(EntryWords.describe(charge("sgitPush", quantity: 2)) == "sgitPush, 2 times")
    }

    @Test func aRefundNamesTheActAndTheReason() {
        var refund = charge("debrief", subject: "note-1")
        refund.kind = .refund
        refund.reason = "not-usable"
        #expect(EntryWords.describe(refund) == "Declined: Debrief (note-1); the result was not usable")
        refund.reason = "other"
        refund.text = "too long"
        #expect(EntryWords.describe(refund) == "Declined: Debrief (note-1); too long")
    }

    @Test func countsAgree() {
        let entries = CountNoun("new entry", "new entries")
        #expect(entries(1) == "1 new entry")
        #expect(entries(0) == "0 new entries")
        #expect(entries(1_200) == "1,200 new entries")
        #expect(EntryKind.opening.withArticle == "an opening")
        #expect(EntryKind.topup.withArticle == "a top-up")
    }
}
