import CreditLedger
import Foundation
import Testing
import VoiceDebriefCredit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// 2026-11-29T12:00:00.000Z.
let testStart = Timestamp(milliseconds: 1_795_953_600_000)

/// A ledger in a fresh directory (signed, as the app opens it) and a meter on it: one app session.
final class AppFixture {
    let temporary: TemporaryDirectory
    let clock = FixedClock(testStart, step: 1000)
    let ids = SequentialIDs(prefix: "id")
    let ledger: Ledger

    init() throws {
        temporary = try TemporaryDirectory()
        ledger = try CreditApp.openLedger(directory: temporary.path + "/data", clock: clock, ids: ids)
    }

    func meter() -> Meter { CreditApp.meter(for: ledger, ids: ids) }

    func fileBytes() throws -> [UInt8] {
        Array(try #require(FileManager.default.contents(atPath: ledger.path(forDevice: ledger.device))))
    }
}

/// Why a price list breaks the rule "no price is free, every price is whole pence"; empty when it holds.
func pricingProblems(_ list: any PriceList) -> [String] {
    var problems: [String] = []
    for item in list.items {
        if item.price <= .zero { problems.append("\(item.key) is free (\(item.price.formatted))") }
        if !item.price.isWholePence {
            problems.append("\(item.key) is not a whole number of pence (\(item.price.formatted))")
        }
    }
    return problems
}

@Suite struct VoiceDebriefPricesTests {
    let prices = VoiceDebriefPrices()

    @Test func noPriceIsFreeAndEveryPriceIsWholePence() {
        #expect(!prices.items.isEmpty)
        for item in prices.items {
            #expect(item.price > .zero, "\(item.key) is free")
            #expect(item.price.isWholePence, "\(item.key) costs \(item.price.formatted), not a whole number of pence")
            #expect(item.price.rawValue % 10_000 == 0)
        }
        #expect(pricingProblems(prices) == [])
    }

    /// The check above fails on a list with a free price or a fraction of a penny.
    @Test func theRuleCatchesAFreeOrFractionalPrice() {
        struct Broken: PriceList {
            let items = [
                PriceItem(key: "free", label: "Free", price: .zero),
                PriceItem(key: "half", label: "Half a penny", price: MicroCredits(5_000)),
                PriceItem(key: "negative", label: "Paid to use", price: MicroCredits(-10_000)),
                PriceItem(key: "fine", label: "Fine", price: MicroCredits(10_000)),
            ]
            let neverCharged: [String: String] = [:]
        }
        #expect(
            pricingProblems(Broken()) == [
                "free is free (£0.00)", "half is not a whole number of pence (£0.005)", "negative is free (-£0.01)",
            ])
    }

    static let seedTable: [(key: String, pence: Int64, unit: PricingUnit)] = [
        ("transcript", 3, .perStartedMinute),
        ("debrief", 5, .each),
        ("cleanPassage", 1, .each),
        ("importFile", 1, .each),
        ("glossaryWord", 1, .each),
        ("createVault", 10, .each),
        ("addVault", 1, .each),
        ("saveToVault", 1, .perItem(maximum: 4)),
        ("send", 1, .each),
        ("addRecipient", 1, .each),
        ("pushVault", 1, .whenSomethingMoved),
        ("pullVault", 1, .whenSomethingMoved),
        ("addServer", 1, .each),
        ("readNote", 1, .each),
        ("readVaultFile", 1, .each),
        ("deleteNote", 1, .each),
        ("removeVault", 1, .each),
        ("removeServer", 1, .each),
        ("removeRecipient", 1, .each),
        ("removeWord", 1, .each),
    ]

    @Test(arguments: seedTable)
    func everyKeyOfTheSeedHasItsPlaceholderPrice(_ row: (key: String, pence: Int64, unit: PricingUnit)) throws {
        let item = try #require(prices.item(for: row.key), "\(row.key) is missing from the price list")
        #expect(item.price == MicroCredits(row.pence * 10_000))
        #expect(item.unit == row.unit)
        #expect(item.isPlaceholder)
        #expect(item.oncePerSubjectPerSession == (row.key == "readNote"))
        #expect(!item.label.isEmpty)
    }

    @Test func theListHoldsExactlyTheSeedsKeysOnce() {
        #expect(Self.seedTable.count == 20)
        #expect(prices.items.map(\.key) == Self.seedTable.map(\.key))
        #expect(Set(prices.items.map(\.key)).count == prices.items.count)
        #expect(prices.items.allSatisfy { $0.isPlaceholder })
    }

    @Test(arguments: seedTable)
    func everyKeyCanBeChargedAndIsWrittenUnderItsKey(_ row: (key: String, pence: Int64, unit: PricingUnit)) throws {
        let app = try AppFixture()
        let meter = app.meter()
        let request: ChargeRequest
        switch row.unit {
        case .perStartedMinute: request = ChargeRequest(row.key, seconds: 60, subject: "note-1")
        case .whenSomethingMoved, .perItem: request = ChargeRequest(row.key, quantity: 1, subject: "vault-1")
        case .each: request = ChargeRequest(row.key, subject: "note-1")
        }
        let entry = try #require(try meter.charge(request).entry)
        #expect(entry.feature == row.key)
        #expect(entry.kind == .charge)
        #expect(entry.amount == MicroCredits(-row.pence * 10_000))
        #expect(app.ledger.balance == MicroCredits(5_000_000 - row.pence * 10_000))
    }
}

@Suite struct ChargingRulesTests {
    @Test func theSeventySixSecondNote() throws {
        let app = try AppFixture()
        let meter = app.meter()
        let transcript = try #require(
            try meter.charge(ChargeRequest("transcript", seconds: 76, subject: "note-76")).entry)
        #expect(transcript.amount == MicroCredits(-60_000))
        #expect(transcript.amount.formatted == "-£0.06")
        #expect(transcript.quantity == 2, "two started minutes")
        let debrief = try #require(try meter.charge(ChargeRequest("debrief", subject: "note-76")).entry)
        #expect(debrief.amount == MicroCredits(-50_000))
        #expect(app.ledger.balance.formatted == "£4.89")
    }

    @Test(arguments: [
        (Int64(1), Int64(3)), (59, 3), (60, 3), (61, 6), (76, 6), (120, 6), (121, 9), (3600, 180), (3601, 183),
    ])
    func aTranscriptIsThreePenceAStartedMinute(_ seconds: Int64, _ pence: Int64) throws {
        let app = try AppFixture()
        let priced = try #require(try app.meter().price(of: ChargeRequest("transcript", seconds: seconds)))
        #expect(priced.amount == MicroCredits(pence * 10_000))
        #expect(priced.quantity == (seconds + 59) / 60)
    }

    @Test(arguments: [
        ChargeRequest("transcript"), ChargeRequest("transcript", seconds: 0),
        ChargeRequest("transcript", seconds: -5), ChargeRequest("debrief", seconds: 60),
    ])
    func aTranscriptNeedsItsLengthAndNothingElseDoes(_ request: ChargeRequest) throws {
        let app = try AppFixture()
        let before = try app.fileBytes()
        #expect(throws: ChargeError.self) { try app.meter().charge(request) }
        #expect(try app.fileBytes() == before)
    }

    @Test(arguments: 1...4)
    func savingIsOnePennyAFileUpToFour(_ files: Int64) throws {
        let app = try AppFixture()
        let entry = try #require(
            try app.meter().charge(ChargeRequest("saveToVault", quantity: files, subject: "note-1")).entry)
        #expect(entry.amount == MicroCredits(-files * 10_000))
        #expect(entry.quantity == files)
    }

    @Test(arguments: [Int64(0), 5, -1, 100])
    func savingNoFilesOrMoreThanFourIsRefused(_ files: Int64) throws {
        let app = try AppFixture()
        let before = try app.fileBytes()
        do {
            let outcome = try app.meter().charge(ChargeRequest("saveToVault", quantity: files))
            Issue.record("\(files) files were accepted: \(outcome)")
        } catch let error as ChargeError {
            guard case .outOfRange(_, "--quantity", files, let allowed) = error else {
                Issue.record("expected outOfRange, got \(error)")
                return
            }
            #expect(allowed == 1...4)
            #expect(error.description.contains("from 1 to 4"))
        }
        #expect(try app.fileBytes() == before)
    }

    @Test(arguments: ["pushVault", "pullVault"])
    func pushAndPullAreChargedOnlyWhenSomethingMoved(_ key: String) throws {
        let app = try AppFixture()
        let meter = app.meter()
        let before = try app.fileBytes()
        let nothing = try meter.charge(ChargeRequest(key, quantity: 0, subject: "vault-1"))
        #expect(nothing.entry == nil)
        guard case .notCharged(let why) = nothing else { return }
        #expect(why.contains("nothing moved"))
        #expect(try app.fileBytes() == before)
        let moved = try #require(try meter.charge(ChargeRequest(key, quantity: 3, subject: "vault-1")).entry)
        #expect(moved.amount == MicroCredits(-10_000), "1p, however much moved")
        #expect(moved.feature == key)
        #expect(throws: ChargeError.self) { try meter.charge(ChargeRequest(key)) }
    }

    @Test func readingANoteIsChargedOncePerNoteWhileTheAppIsOpen() throws {
        let app = try AppFixture()
        let session = app.meter()
        #expect(try session.charge(ChargeRequest("readNote", subject: "note-1")).entry != nil)
        let again = try session.charge(ChargeRequest("readNote", subject: "note-1"))
        #expect(again == .notCharged("already charged once while the app is open"))
        #expect(
            try session.charge(ChargeRequest("readNote", subject: "note-2")).entry != nil, "another note is charged")
        #expect(try session.charge(ChargeRequest("readNote", subject: "note-2")).entry == nil)
        let nextSession = app.meter()
        #expect(
            try nextSession.charge(ChargeRequest("readNote", subject: "note-1")).entry != nil,
            "a new session charges again")
        #expect(
            app.ledger.entries.filter { $0.feature == "readNote" }.map(\.subject) == ["note-1", "note-2", "note-1"])
        #expect(app.ledger.balance == MicroCredits(4_970_000))
    }

    @Test func theNoteThatOpensItselfIsNotCharged() throws {
        let app = try AppFixture()
        let session = app.meter()
        let before = try app.fileBytes()
        let automatic = try session.charge(ChargeRequest("readNote", subject: "note-1", automatic: true))
        #expect(automatic == .notCharged("it opened by itself"), "said once: \"Not charged: it opened by itself.\"")
        #expect(try app.fileBytes() == before)
        // Opening it deliberately afterwards is the first charge for it.
        #expect(try session.charge(ChargeRequest("readNote", subject: "note-1")).entry != nil)
    }

    @Test func onlyANoteOpeningCanHappenByItself() throws {
        let app = try AppFixture()
        let before = try app.fileBytes()
        #expect(throws: ChargeError.self) {
            try app.meter().charge(ChargeRequest("transcript", seconds: 60, automatic: true))
        }
        #expect(try app.fileBytes() == before)
    }

    @Test func aFileInAVaultIsChargedEachTime() throws {
        let app = try AppFixture()
        let session = app.meter()
        for _ in 0..<3 {
            #expect(try session.charge(ChargeRequest("readVaultFile", subject: "vault/a.md")).entry != nil)
        }
        #expect(app.ledger.balance == MicroCredits(4_970_000))
    }

    @Test(arguments: ["removeServer", "removeRecipient", "removeWord", "deleteNote", "removeVault"])
    func removingIsOnePennyEach(_ key: String) throws {
        let app = try AppFixture()
        let entry = try #require(try app.meter().charge(ChargeRequest(key, subject: "x")).entry)
        #expect(entry.amount == MicroCredits(-10_000))
        #expect(entry.feature == key)
    }

    @Test(arguments: ["record", "discardRecording", "listVault", "settings", "diagnostics", "creditScreen"])
    func unchargedActsAreRefusedSayingTheyAreNeverCharged(_ act: String) throws {
        let app = try AppFixture()
        #expect(VoiceDebriefPrices().item(for: act) == nil, "\(act) has no key")
        let before = try app.fileBytes()
        do {
            let outcome = try app.meter().charge(ChargeRequest(act))
            Issue.record("\(act) was not refused: \(outcome)")
        } catch let error as ChargeError {
            guard case .neverCharged(let refused, let message) = error else {
                Issue.record("expected neverCharged, got \(error)")
                return
            }
            #expect(refused == act)
            #expect(message.contains("never charged"))
            #expect(error.description == message)
        }
        #expect(try app.fileBytes() == before)
    }

    @Test func theNeverChargedListIsTheSeeds() {
        #expect(
            Set(VoiceDebriefPrices().neverCharged.keys)
                == ["record", "discardRecording", "listVault", "settings", "diagnostics", "creditScreen"])
        #expect(
            VoiceDebriefPrices().neverCharged["record"]?.contains("never stops, delays or interrupts a recording")
                == true)
    }

    struct TranscriptionFailed: Error {}

    @Test func aTranscriptThatFailsCostsNothing() throws {
        let app = try AppFixture()
        let before = try app.fileBytes()
        #expect(throws: TranscriptionFailed.self) {
            _ = try app.meter().perform(ChargeRequest("transcript", seconds: 76)) { () throws -> String in
                throw TranscriptionFailed()
            }
        }
        #expect(try app.fileBytes() == before)
        let (text, outcome) = try app.meter().perform(ChargeRequest("transcript", seconds: 76)) { "hello" }
        #expect(text == "hello")
        #expect(outcome.entry?.amount == MicroCredits(-60_000))
    }

    @Test func anUnknownKeyIsRefusedNamingTheKeys() throws {
        let app = try AppFixture()
        do {
            _ = try app.meter().charge(ChargeRequest("teleport"))
            Issue.record("an unknown key was charged")
        } catch let error as ChargeError {
            #expect(error.description.contains("teleport"))
            #expect(error.description.contains("transcript, debrief"))
        }
    }

    @Test func theAppsLedgerIsSigned() throws {
        let app = try AppFixture()
        #expect(app.ledger.isSigned)
        try app.meter().charge(ChargeRequest("debrief"))
        #expect(try CreditApp.verify(app.ledger, files: nil).isClean)
    }
}
