import CreditLedger
import Testing

/// A valid unsigned line, the base every malformed variant is made from.
private let validLine =
    #"{"id":"c1","device":"dev","seq":1,"time":"2026-11-29T18:06:49.123Z","kind":"charge","feature":"debrief","subject":"note-1","quantity":1,"amount":-50000,"balanceAfter":4950000}"#

/// `validLine` with `old` replaced by `new` (which must change it).
private func variant(_ old: String, _ new: String) -> [UInt8] {
    precondition(validLine.contains(old), "\(old) is not in the base line")
    return Array(validLine.replacing(old, with: new).utf8)
}

/// `validLine` with raw `bytes` as the subject's content.
private func withSubjectBytes(_ bytes: [UInt8]) -> [UInt8] {
    let parts = validLine.components(separatedBy: "note-1")
    return Array(parts[0].utf8) + bytes + Array(parts[1].utf8)
}

private func parse(_ text: String) throws -> LedgerEntry { try EntryCodec.parse(Array(text.utf8)) }

private let everyField = LedgerEntry(
    id: "topup-mockstore-2000000123", device: "d3v1c3-\u{00E9}", sequence: 9_223_372_036_854_775_807,
    time: Timestamp(milliseconds: 1_795_975_609_123), kind: .topup, feature: "feature \"quoted\" \\ back/slash",
    subject: "Café ☕ 🎙️ 日本語 \u{0001}\u{001F}\u{007F} tab\there\nnew line\r", quantity: -9_223_372_036_854_775_808,
    amount: MicroCredits(Int64.min), balanceAfter: MicroCredits(Int64.max), refersTo: "charge-1",
    reason: "other", text: "Top-up (simulated, no money taken) — «ok» 𝄞", reference: "2000000123",
    product: "ai.voicedebrief.app.credit.500", receipt: "eyJhbGciOiJFUzI1NiJ9.eyJ4IjoxfQ.c2ln",
    prev: String(repeating: "0", count: 64), mac: String(repeating: "ab", count: 32))

@Suite struct EntryCodecTests {
    @Test func roundTripsEveryField() throws {
        let line = EntryCodec.line(body: EntryCodec.body(of: everyField), mac: everyField.mac)
        #expect(line.last == 0x0A)
        #expect(line.filter { $0 == 0x0A }.count == 1, "a line holds exactly one newline, at its end")
        let back = try EntryCodec.parse(Array(line.dropLast()))
        #expect(back == everyField)
    }

    @Test(arguments: EntryKind.allCases)
    func roundTripsEveryKindWithoutOptionals(_ kind: EntryKind) throws {
        let entry = LedgerEntry(
            id: "x", device: "d", sequence: 1, time: Timestamp(milliseconds: 0), kind: kind, amount: MicroCredits(-1),
            balanceAfter: .zero)
        let line = EntryCodec.line(body: EntryCodec.body(of: entry), mac: nil)
        #expect(try EntryCodec.parse(Array(line.dropLast())) == entry)
    }

    @Test func writesCompactJSONInAFixedOrder() {
        let entry = LedgerEntry(
            id: "c1", device: "dev", sequence: 1, time: Timestamp(milliseconds: 1_795_975_609_123), kind: .charge,
            feature: "debrief", subject: "note-1", amount: MicroCredits(-50_000), balanceAfter: MicroCredits(4_950_000))
        let line = EntryCodec.line(body: EntryCodec.body(of: entry), mac: nil)
        #expect(String(decoding: line, as: UTF8.self) == validLine + "\n")
    }

    @Test func escapesWhatJSONNeedsAndNothingElse() {
        var entry = LedgerEntry(
            id: "a\"b\\c\nd\re\tf\u{01}g\u{7F}h/é", device: "d", sequence: 1, time: Timestamp(milliseconds: 0),
            kind: .opening, amount: .zero, balanceAfter: .zero)
        entry.quantity = 1
        let text = String(decoding: EntryCodec.body(of: entry), as: UTF8.self)
        #expect(text.hasPrefix(#"{"id":"a\"b\\c\nd\re\tf\u0001g\u007fh/é","device""#))
    }

    @Test func theMACCoversExactlyTheBodyAndIsLast() throws {
        let mac = String(repeating: "0f", count: 32)
        let body = EntryCodec.body(of: everyField)
        let line = Array(EntryCodec.line(body: body, mac: mac).dropLast())
        let prefix = line.withUnsafeBufferPointer { EntryCodec.macCoveredPrefix(of: $0) }
        #expect(prefix == body.count)
        #expect(String(decoding: line[body.count...], as: UTF8.self) == #","mac":""# + mac + #""}"#)
        let unsigned = Array(EntryCodec.line(body: body, mac: nil).dropLast())
        #expect(unsigned.withUnsafeBufferPointer { EntryCodec.macCoveredPrefix(of: $0) } == nil)
    }

    @Test func readsTheLimitsOfInt64() throws {
        let entry = try parse(
            validLine.replacing("-50000", with: "-9223372036854775808")
                .replacing("4950000", with: "9223372036854775807"))
        #expect(entry.amount.rawValue == Int64.min)
        #expect(entry.balanceAfter.rawValue == Int64.max)
        #expect(try parse(validLine.replacing("\"amount\":-50000", with: "\"amount\":0")).amount == .zero)
    }

    @Test(arguments: [
        (#"\u00e9"#, "é"),
        (#"\u00E9"#, "é"),
        (#"\ud83c\udf99"#, "🎙"),
        (#"\/"#, "/"),
        (#"\b\f\n\r\t"#, "\u{08}\u{0C}\n\r\t"),
        (#"\"\\"#, "\"\\"),
        (#"\u0000"#, "\u{0}"),
        (#"a\u0041b"#, "aAb"),
    ])
    func readsEveryEscape(_ escaped: String, _ expected: String) throws {
        let entry = try parse(validLine.replacing("note-1", with: escaped))
        #expect(entry.subject == expected)
    }

    @Test func readsRawUnicode() throws {
        let entry = try parse(validLine.replacing("note-1", with: "Café ☕ 🎙️ 日本語"))
        #expect(entry.subject == "Café ☕ 🎙️ 日本語")
    }

    static let malformedLines: [(String, [UInt8])] = [
        ("duplicate key", variant(#""subject":"note-1""#, #""subject":"note-1","subject":"note-2""#)),
        ("duplicate id", variant(#""id":"c1""#, #""id":"c1","id":"c1""#)),
        ("float", variant("-50000", "-50000.0")),
        ("fraction", variant("4950000", "4950000.5")),
        ("exponent 1e2", variant(#""quantity":1"#, #""quantity":1e2"#)),
        ("exponent 1E2", variant(#""quantity":1"#, #""quantity":1E2"#)),
        ("negative zero", variant(#""quantity":1"#, #""quantity":-0"#)),
        ("leading zero", variant(#""quantity":1"#, #""quantity":01"#)),
        ("negative leading zero", variant("-50000", "-050000")),
        ("plus sign", variant(#""quantity":1"#, #""quantity":+1"#)),
        ("beyond Int64", variant("4950000", "9223372036854775808")),
        ("below Int64", variant("-50000", "-9223372036854775809")),
        ("far beyond Int64", variant("4950000", "123456789012345678901234567890")),
        ("a lone minus", variant("-50000", "-")),
        ("integer as string", variant(#""seq":1"#, #""seq":"1""#)),
        ("string as integer", variant(#""id":"c1""#, #""id":1"#)),
        ("null", variant(#""subject":"note-1""#, #""subject":null"#)),
        ("true", variant(#""quantity":1"#, #""quantity":true"#)),
        ("unknown field", variant(#""quantity":1"#, #""quantity":1,"colour":"red""#)),
        ("trailing byte", Array((validLine + "x").utf8)),
        ("trailing space", Array((validLine + " ").utf8)),
        ("trailing CR", Array((validLine + "\r").utf8)),
        ("second object", Array((validLine + "{}").utf8)),
        ("space after brace", variant(#"{"id""#, #"{ "id""#)),
        ("space before colon", variant(#""id":"c1""#, #""id" :"c1""#)),
        ("space after colon", variant(#""id":"c1""#, #""id": "c1""#)),
        ("space after comma", variant(#","device""#, #", "device""#)),
        ("space before brace", Array(validLine.dropLast().utf8) + Array(" }".utf8)),
        ("tab", variant(#","device""#, "\t,\"device\"")),
        ("byte order mark", Array("\u{FEFF}".utf8) + Array(validLine.utf8)),
        ("invalid UTF-8", withSubjectBytes([0xC3, 0x28])),
        ("overlong UTF-8", withSubjectBytes([0xC0, 0xAF])),
        ("UTF-8 surrogate", withSubjectBytes([0xED, 0xA0, 0x80])),
        ("truncated UTF-8", withSubjectBytes([0xE2, 0x98])),
        ("invalid UTF-8 beside an escape", withSubjectBytes([0x5C, 0x6E, 0xFF])),
        ("raw control character", withSubjectBytes([0x01])),
        ("raw tab", withSubjectBytes([0x09])),
        ("raw NUL", withSubjectBytes([0x00])),
        ("lone high surrogate", variant("note-1", #"\ud800"#)),
        ("lone low surrogate", variant("note-1", #"\udc00"#)),
        ("high surrogate then text", variant("note-1", #"\ud800abcdef"#)),
        ("high surrogate then a non-surrogate", variant("note-1", #"\ud800\u0041"#)),
        ("two high surrogates", variant("note-1", #"\ud800\ud800"#)),
        ("unknown escape", variant("note-1", #"\x41"#)),
        ("short unicode escape", variant("note-1", #"\u12"#)),
        ("bad hex in escape", variant("note-1", #"\u12G4"#)),
        ("escape in a key", variant(#""subject""#, #""subj\u0065ct""#)),
        ("no closing quote", Array(#"{"id":"c1"#.utf8)),
        ("unclosed object", Array(validLine.dropLast().utf8)),
        ("empty", [UInt8]()),
        ("empty object", Array("{}".utf8)),
        ("array", Array("[]".utf8)),
        ("missing id", variant(#""id":"c1","#, "")),
        ("empty id", variant(#""id":"c1""#, #""id":"""#)),
        ("missing device", variant(#""device":"dev","#, "")),
        ("missing amount", variant(#""amount":-50000,"#, "")),
        ("missing balanceAfter", variant(#","balanceAfter":4950000"#, "")),
        ("seq 0", variant(#""seq":1"#, #""seq":0"#)),
        ("negative seq", variant(#""seq":1"#, #""seq":-1"#)),
        ("unknown kind", variant(#""kind":"charge""#, #""kind":"gift""#)),
        ("time without milliseconds", variant("18:06:49.123Z", "18:06:49Z")),
        ("impossible date", variant("2026-11-29", "2026-02-30")),
        ("trailing comma", Array(validLine.dropLast().utf8) + Array(",}".utf8)),
        ("single quotes", variant(#""id":"c1""#, #"'id':"c1""#)),
    ]

    @Test(arguments: malformedLines)
    func rejects(_ name: String, _ line: [UInt8]) {
        do {
            let entry = try EntryCodec.parse(line)
            Issue.record("\(name): accepted as \(entry)")
        } catch {
            #expect(!error.reason.isEmpty)
        }
    }

    @Test func saysWhatIsWrong() {
        func reason(_ line: [UInt8]) -> String {
            do {
                _ = try EntryCodec.parse(line)
                return "accepted"
            } catch { return error.reason }
        }
        #expect(reason(variant(#""quantity":1"#, #""quantity":1,"colour":"red""#)).contains("unknown field \"colour\""))
        #expect(reason(variant(#""id":"c1""#, #""id":"c1","id":"c1""#)).contains("appears twice"))
        #expect(reason(variant(#""quantity":1"#, #""quantity":-0"#)).contains("-0"))
        #expect(reason(variant(#""quantity":1"#, #""quantity":01"#)).contains("leading zero"))
        #expect(reason(variant("-50000", "-50000.0")).contains("whole number"))
        #expect(reason(variant("4950000", "9223372036854775808")).contains("64-bit"))
        #expect(reason(withSubjectBytes([0xC3, 0x28])).contains("UTF-8"))
        #expect(reason(withSubjectBytes([0x01])).contains("control character"))
        #expect(reason(variant("note-1", #"\ud800"#)).contains("surrogate"))
        #expect(reason(Array((validLine + "x").utf8)).contains("after the object"))
    }

    /// Cutting a valid line anywhere never yields an entry, and never crashes.
    @Test func everyPrefixOfALineIsRejected() {
        let bytes = Array(validLine.utf8)
        for length in 0..<bytes.count {
            #expect(throws: EntryParseError.self, "prefix of \(length) bytes") {
                try EntryCodec.parse(Array(bytes[0..<length]))
            }
        }
    }

    /// Flipping any one byte of a line either is rejected or reads as a different entry; never a crash.
    @Test func flippingAnyByteNeverCrashes() throws {
        let bytes = Array(validLine.utf8)
        let original = try EntryCodec.parse(bytes)
        for index in bytes.indices {
            for flip: UInt8 in [0x01, 0x20, 0x80] {
                var copy = bytes
                copy[index] ^= flip
                if let entry = try? EntryCodec.parse(copy) {
                    #expect(entry != original || copy == bytes)
                }
            }
        }
    }
}
