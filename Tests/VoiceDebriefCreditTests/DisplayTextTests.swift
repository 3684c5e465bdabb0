import Testing
import VoiceDebriefCredit

/// Nothing drawn that was not meant (issue 14): control characters shown escaped, cells cut with an ellipsis by
/// characters, the input limits, and where the data directory is by default.
@Suite struct DisplayTextTests {
    @Test(arguments: [
        ("\u{1B}[2J", "[U+001B][2J"), ("a\nb", "a\\nb"), ("a\rb\tc", "a\\rb\\tc"), ("\u{0}", "[U+0000]"),
        ("\u{7F}", "[U+007F]"), ("\u{9B}31m", "[U+009B]31m"), ("\u{85}", "[U+0085]"),
        ("abc\u{202E}fdp.exe", "abc[U+202E]fdp.exe"), ("\u{202A}\u{202D}", "[U+202A][U+202D]"),
        ("\u{2066}x\u{2069}", "[U+2066]x[U+2069]"),
    ])
    func controlCharactersAreShownEscaped(_ text: String, _ shown: String) {
        #expect(DisplayText.escaped(text) == shown)
        #expect(!DisplayText.escaped(text).unicodeScalars.contains(where: DisplayText.needsEscape))
    }

    @Test(arguments: ["note 3", "café", "東京", "👩‍👩‍👧", "🇬🇧", "back\\slash", ""])
    func ordinaryTextIsShownAsItIs(_ text: String) {
        #expect(DisplayText.escaped(text) == text)
    }

    @Test func aCellIsCutToItsWidthWithAnEllipsis() {
        #expect(DisplayText.cell("abcdef", width: 6) == "abcdef")
        #expect(DisplayText.cell("abcdefg", width: 6) == "abcde…")
        #expect(DisplayText.cell("abc", width: 1) == "…" && DisplayText.cell("a", width: 1) == "a")
        #expect(DisplayText.cell("abc", width: 0) == "")
        let long = String(repeating: "x", count: 10_000)
        #expect(DisplayText.cell(long, width: 40).count == 40)
    }

    @Test func aCutNeverSplitsACharacter() {
        let family = "👩‍👩‍👧"
        let text = "e\u{301}" + family + "🇬🇧" + "zz"
        #expect(DisplayText.cell(text, width: 3) == "e\u{301}" + family + "…")
        #expect(DisplayText.cell(text, width: 4) == "e\u{301}" + family + "🇬🇧" + "…")
        // Escaped first, then cut: the escape's own characters count, and no control character survives a cut.
        #expect(DisplayText.tableCell("\u{1B}[2Jabc", width: 5) == "[U+0…")
    }

    @Test func subjectsAndTextsHaveByteLimits() throws {
        #expect(InputLimits.subjectBytes == 256 && InputLimits.textBytes == 1_000)
        try InputLimits.validate(subject: String(repeating: "s", count: 256))
        try InputLimits.validate(subject: nil)
        try InputLimits.validate(text: String(repeating: "t", count: 1_000))
        #expect(throws: InputLimits.TooLong(option: "--subject", bytes: 257, limit: 256)) {
            try InputLimits.validate(subject: String(repeating: "s", count: 257))
        }
        // Bytes, not characters: 86 three-byte characters are 258 bytes.
        #expect(throws: InputLimits.TooLong(option: "--subject", bytes: 258, limit: 256)) {
            try InputLimits.validate(subject: String(repeating: "東", count: 86))
        }
        do {
            try InputLimits.validate(text: String(repeating: "t", count: 10_000))
            Issue.record("a 10 kB text was accepted")
        } catch let error as InputLimits.TooLong {
            #expect(error.isUsageError && "\(error)".contains("--text") && "\(error)".contains("1000"))
        }
    }

    @Test func theDataDirectoryHonoursTheEnvironmentThenHomeThenPasswd() {
        let home = ["HOME": "/home/ann"]
        #expect(DataDirectoryLocation.resolve(environment: home) == "/home/ann/.local/share/voicedebrief")
        #expect(
            DataDirectoryLocation.resolve(environment: home.merging(["XDG_DATA_HOME": "/x"]) { $1 })
                == "/x/voicedebrief")
        #expect(
            DataDirectoryLocation.resolve(environment: home.merging(["XDG_DATA_HOME": "rel"]) { $1 })
                == "/home/ann/.local/share/voicedebrief", "a relative XDG_DATA_HOME is ignored")
        #expect(
            DataDirectoryLocation.resolve(environment: ["CREDIT_DATA_DIR": "/d", "XDG_DATA_HOME": "/x", "HOME": "/h"])
                == "/d")
        let fromPasswd = DataDirectoryLocation.resolve(environment: [:])
        #expect(fromPasswd?.hasSuffix("/.local/share/voicedebrief") == true)
    }
}

/// Issue 35 item 11: a character that could reorder or hide what is around it reads the same on the terminal as on
/// the P&L page (`[U+202E]`), never as Swift's `\u{202E}`.
@Suite struct OneFormForHiddenCharactersTests {
    @Test(arguments: ["\u{202E}", "\u{200B}", "\u{FEFF}", "\u{2028}", "\u{200F}", "\u{061C}", "\u{E0041}"])
    func aHiddenCharacterIsShownAsItsCode(_ character: String) {
        let value = character.unicodeScalars.first!.value
        let digits = String(value, radix: 16, uppercase: true)
        let code = "[U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "]"
        #expect(DisplayText.escaped("a" + character + "b") == "a" + code + "b")
        #expect(!DisplayText.escaped(character).contains("\\u{"))
    }

    @Test func joinersThatEmojiNeedAreKept() {
        let family = "👩\u{200D}👩\u{200D}👧"
        #expect(DisplayText.escaped(family) == family)
        #expect(DisplayText.escaped("é") == "é")
    }
}
