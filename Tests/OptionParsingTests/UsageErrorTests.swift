import OptionParsing
import Testing

/// Every kind of mistake, each with a message that names the option and the value.
@Suite struct UsageErrorTests {}

extension UsageErrorTests {
    @Test(arguments: [
        (["charge", "k", "--bogus"], UsageError.Kind.unknownOption("--bogus"), "unknown option --bogus for charge"),
        (["-x"], .unknownOption("-x"), "unknown option -x"),
        (
            ["charge", "k", "--subject", "a", "--subject", "b"], .repeatedOption("--subject"),
            "--subject is given more than once"
        ),
        (["--json", "balance", "--json"], .unknownCommand("balance"), "unknown command \"balance\""),
        (["charge", "k", "--subject"], .missingValue(option: "--subject"), "--subject needs a value (ID)"),
        (["charge", "k", "--subject", "--json"], .missingValue(option: "--subject"), "--subject needs a value (ID)"),
        (["charge", "k", "--subject="], .emptyValue(option: "--subject"), "--subject needs a value, got an empty one"),
        (["--json=yes"], .unexpectedValue(option: "--json"), "--json takes no value, got \"yes\""),
        (
            ["charge", "k", "--seconds", "abc"], .invalidValue(option: "--seconds", value: "abc"),
            "--seconds \"abc\" is not a whole number from 1 to 360,000"
        ),
        (
            ["charge", "k", "--quantity", "-1"], .outOfRange(option: "--quantity", value: "-1"),
            "--quantity \"-1\" is not a whole number of at least 0"
        ),
        (
            ["charge", "k", "--subject", "123456789"], .tooLong(option: "--subject", bytes: 9, limit: 8),
            "--subject \"123456789\" is 9 bytes long; it takes at most 8"
        ),
        (
            ["decline", "id", "--reason", "bored"], .invalidValue(option: "--reason", value: "bored"),
            "--reason \"bored\" is not one of not-usable, test, other"
        ),
        (
            ["--data-dir", "charge"], .valueIsACommand(option: "--data-dir", value: "charge"),
            "--data-dir needs a value (DIR), not the command \"charge\"; write --data-dir=charge if that is meant"
        ),
        (["decline", "id"], .missingOption("--reason"), "decline needs --reason not-usable|test|other"),
        (["frobnicate"], .unknownCommand("frobnicate"), "unknown command \"frobnicate\""),
        (["store", "bogus"], .unknownCommand("bogus"), "unknown store command \"bogus\" (the only one is use)"),
        (["store", "use", "cash"], .unknownCommand("cash"), "unknown store \"cash\": simulated or mockstore"),
        (["store", "use"], .missingCommand, "tool store use needs a store: simulated or mockstore"),
        (["charge"], .missingArgument("KEY"), "charge needs KEY: the key of the act"),
        (["merge"], .missingArgument("FILE"), "merge needs FILE: files"),
        (["charge", "k", "extra"], .unexpectedArgument("extra"), "unexpected argument \"extra\" for charge"),
        (
            ["switch", "maybe"], .invalidValue(option: "on|off", value: "maybe"),
            "switch on|off: \"maybe\" is not one of on, off"
        ),
        (["store", "use", "mockstore"], .missingOption("--url"), "mockstore needs --url URL"),
    ])
    func eachMistakeSaysWhatIsWrong(words: [String], kind: UsageError.Kind, message: String) {
        let error = Tool.mistake(words)
        #expect(error?.kind == kind, "\(words)")
        #expect(error?.message == message, "\(words)")
    }

    @Test func theErrorNamesTheCommandForItsHelp() {
        #expect(Tool.mistake(["charge", "k", "--bogus"])?.command == ["tool", "charge"])
        #expect(Tool.mistake(["--bogus"])?.command == ["tool"])
        #expect(Tool.mistake(["store", "use", "x"])?.command == ["tool", "store", "use"])
    }

    @Test func theFirstMistakeIsReported() {
        #expect(Tool.mistake(["charge", "--bogus", "--seconds", "x"])?.kind == .unknownOption("--bogus"))
    }

    @Test func valuesInMessagesAreEscapedAndCut() {
        let escape = Tool.mistake(["decline", "id", "--reason", "\u{1B}[2J\u{202E}"])
        #expect(escape?.message == #"--reason "[U+001B][2J[U+202E]" is not one of not-usable, test, other"#)
        let long = Tool.mistake(["charge", "k", "--subject", String(repeating: "x", count: 10_000)])
        #expect(
            long?.message == "--subject \"" + String(repeating: "x", count: 60)
                + "…\" is 10000 bytes long; it takes at most 8")
        #expect(quoted("say \"hi\"\n") == #""say \"hi\"\n""#)
    }

    @Test func programsMakeTheirOwnMistakesInTheSameShape() {
        let error = UsageError.invalidValue("--host", "example.com", isNot: "an IPv4 or IPv6 address", command: ["m"])
        #expect(error.message == "--host \"example.com\" is not an IPv4 or IPv6 address")
        #expect(error.kind == .invalidValue(option: "--host", value: "example.com"))
        #expect(UsageError("a quote is not closed").kind == .other)
    }

    @Test func groupedDigitsAreReadWhenDeclared() throws {
        let spec = CommandSpec(
            "bench",
            options: [.integer(.entries, "N", in: 100...Int64.max, noun: "a number", allowsGrouping: true, help: "")]
        )
        #expect(
            try spec.parse(["--entries", "1,000,000"])
                == .run(ParsedArguments(path: ["bench"], options: ["--entries": [.integer(1_000_000)]])))
        #expect(
            try spec.parse(["--entries", "1_000"])
                == .run(ParsedArguments(path: ["bench"], options: ["--entries": [.integer(1_000)]])))
        #expect(throws: UsageError.self) { try spec.parse(["--entries", "99"]) }
    }
}
