import OptionParsing
import Testing

/// A command as a type: its options declared once (``Option``, ``Argument``), read typed, checked by `validate()`.
@Suite struct ParsableCommandTests {
    /// `--reason` as a command takes it.
    enum Reason: String, ChoiceWords {
        case notUsable = "not-usable"
        case test, other
    }

    /// `decline ENTRY-ID --reason R [--text T] [--quantity N]`, as a type.
    struct Decline: ParsableCommand {
        static let reason = Option.choice(.reason, Reason.self, help: "why").required()
        static let text = Option.string(.text, "T", help: "your words")
        static let quantity = Option.integer(.quantity, "N", in: 1...9, noun: "a number", help: "how many")
        static let json = Option.flag(.json, help: "for scripts")
        static let urls = Option.strings(.url, "URL", help: "any number of URLs")
        static let entryId = Argument.word(.entryId, help: "the charge")
        static let files = Argument.list(.file, optional: true)

        static let configuration = CommandSpec(
            "decline", options: [reason.spec, text.spec, quantity.spec, json.spec, urls.spec],
            positionals: [entryId.spec, files.spec])

        let reason: Reason
        let text: String?
        let quantity: Int64?
        let json: Bool
        let urls: [String]
        let entryId: String
        let files: [String]

        init(_ arguments: ParsedArguments) throws(UsageError) {
            reason = try arguments.value(of: Self.reason)
            text = try arguments.value(of: Self.text)
            quantity = try arguments.value(of: Self.quantity)
            json = try arguments.value(of: Self.json)
            urls = try arguments.value(of: Self.urls)
            entryId = try arguments.value(of: Self.entryId)
            files = try arguments.value(of: Self.files)
        }

        func validate() throws(UsageError) {
            if text != nil, reason != .other { throw UsageError("--text goes with --reason other") }
        }
    }

    static func parse(_ words: String...) throws(UsageError) -> Decline {
        guard case .run(let arguments) = try Decline.configuration.parse(words) else {
            throw UsageError("help asked for")
        }
        return try Decline.parse(arguments)
    }

    @Test func theValuesAreReadTypedFromTheirDeclarations() throws {
        let command = try Self.parse(
            "e1", "--reason", "not-usable", "--quantity", "3", "--json", "--url", "a", "--url=b", "f1", "f2")
        #expect(command.reason == .notUsable)
        #expect(command.text == nil && command.quantity == 3 && command.json)
        #expect(command.urls == ["a", "b"])
        #expect(command.entryId == "e1" && command.files == ["f1", "f2"])
        let bare = try Self.parse("e2", "--reason=other", "--text", "mine")
        #expect(bare.reason == .other && bare.text == "mine" && bare.quantity == nil && !bare.json)
        #expect(bare.urls.isEmpty && bare.files.isEmpty)
    }

    @Test func theDeclarationsAreWhatTheParserAndHelpRead() {
        let reason = Decline.reason.spec
        #expect(reason.kind == .choice(["not-usable", "test", "other"]) && reason.isRequired)
        #expect(reason.valueName == "not-usable|test|other")
        #expect(Decline.urls.spec.isRepeatable && !Decline.text.spec.isRequired)
        #expect(Decline.files.spec.isRepeating && Decline.files.spec.isOptional && !Decline.entryId.spec.isOptional)
        #expect(Decline.reason.name == OptionName("--reason") && Decline.entryId.name == PositionalName("ENTRY-ID"))
        let help = Decline.configuration.helpText
        #expect(help.contains("\n  --reason not-usable|test|other") && help.contains("  ENTRY-ID  the charge"))
    }

    @Test func aBadChoiceIsRefusedByTheParserInItsWords() {
        #expect(throws: UsageError.self) { try Self.parse("e1", "--reason", "bored") }
        do {
            _ = try Self.parse("e1", "--reason", "bored")
        } catch {
            #expect(error.kind == .invalidValue(option: "--reason", value: "bored"))
            #expect(error.message == #"--reason "bored" is not one of not-usable, test, other"#)
        }
    }

    @Test func validateRefusesWhatTheDeclarationsCannotAndNamesTheCommand() {
        do {
            _ = try Self.parse("e1", "--reason", "test", "--text", "x")
            Issue.record("--text without --reason other was taken")
        } catch {
            #expect(error.message == "--text goes with --reason other")
            #expect(error.kind == .other)
            #expect(error.command == ["decline"], "validate()'s mistake is said for the command it was made in")
        }
    }

    @Test func aRequiredOptionMissingFromWhatWasParsedIsAUsageError() {
        // The parser refuses it first; read from arguments made by hand, the reading says the same.
        do {
            _ = try Decline(ParsedArguments(path: ["decline"], positionals: ["ENTRY-ID": ["e1"]]))
            Issue.record("a missing --reason was taken")
        } catch {
            #expect(error.kind == .missingOption("--reason"))
            #expect(error.message == "decline needs --reason not-usable|test|other")
        }
        #expect(throws: UsageError.self) { try Self.parse("e1") }
    }
}
