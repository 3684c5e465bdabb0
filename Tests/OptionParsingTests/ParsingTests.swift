import OptionParsing
import Testing

@Suite struct ParsingTests {}

extension ParsingTests {
    @Test func valuesAreReadAsDeclared() throws {
        let parsed = try Tool.run(
            "--data-dir", "/d", "charge", "transcript", "--seconds", "76", "--quantity=0", "--subject", "n1",
            "--auto-open", "--json")
        #expect(parsed.path == ["tool", "charge"])
        #expect(parsed.command == "charge")
        #expect(parsed.string(.dataDir) == "/d")
        #expect(parsed.integer(.seconds) == 76)
        #expect(parsed.integer(.quantity) == 0)
        #expect(parsed.string(.subject) == "n1")
        #expect(parsed.flag(.autoOpen) && parsed.flag(.json))
        #expect(parsed.positional(.key) == "transcript")
        #expect(!parsed.flag(.nothing) && parsed.string(.nothing) == nil)
    }

    @Test func inheritedOptionsGoAnywhereAndTheDefaultCommandRuns() throws {
        #expect(try Tool.run("--json").path == ["tool", "screen"])
        #expect(try Tool.run().path == ["tool", "screen"])
        #expect(try Tool.run("charge", "--data-dir=/x", "k").string(.dataDir) == "/x")
        #expect(try Tool.run("store").path == ["tool", "store"], "a command that runs without a subcommand")
        let nested = try Tool.run("store", "use", "mockstore", "--url", "http://x", "--json")
        #expect(nested.path == ["tool", "store", "use", "mockstore"])
        #expect(nested.flag(.json))
    }

    @Test func valuesMayStartWithOneDashAndDoubleDashEndsOptions() throws {
        #expect(try Tool.run("decline", "--reason", "other", "--text", "-", "id").string(.text) == "-")
        #expect(try Tool.run("decline", "--reason", "other", "--text", "", "id").string(.text) == "")
        #expect(try Tool.run("merge", "--", "--odd-name", "-h").positionalList(.file) == ["--odd-name", "-h"])
    }

    @Test func repeatablePositionalsAndOptionsKeepTheirOrder() throws {
        #expect(try Tool.run("merge", "a", "b", "c").positionalList(.file) == ["a", "b", "c"])
        #expect(try Tool.run("verify").positionalList(.file) == [])
        let keys = try Tool.run("store", "use", "mockstore", "--url", "u", "--key", "a=1", "--key=b=2")
        #expect(keys.strings(.key) == ["a=1", "b=2"])
        #expect(keys.string(.key) == "b=2")
    }

    @Test func rangesAreInclusive() throws {
        #expect(try Tool.run("charge", "t", "--seconds", "1").integer(.seconds) == 1)
        #expect(try Tool.run("charge", "t", "--seconds", "360000").integer(.seconds) == 360_000)
        #expect(
            Tool.mistake(["charge", "t", "--seconds", "360001"])?.kind
                == .outOfRange(option: "--seconds", value: "360001"))
        #expect(Tool.mistake(["charge", "t", "--seconds", "0"])?.kind == .outOfRange(option: "--seconds", value: "0"))
        #expect(
            Tool.mistake(["charge", "t", "--seconds", "-5"])?.kind == .outOfRange(option: "--seconds", value: "-5"))
        let huge = Tool.mistake(["charge", "t", "--seconds", "9223372036854775808"])
        #expect(huge?.kind == .outOfRange(option: "--seconds", value: "9223372036854775808"), "no overflow, no trap")
        #expect(huge?.message == "--seconds \"9223372036854775808\" is not a whole number from 1 to 360,000")
    }

    @Test func helpIsAskedForAnywhereAndWinsOverOptionMistakes() throws {
        #expect(try Tool.spec.parse(["--help"]) == .help(["tool"]))
        #expect(try Tool.spec.parse(["charge", "-h"]) == .help(["tool", "charge"]))
        #expect(
            try Tool.spec.parse(["--data-dir", "/d", "charge", "--seconds", "abc", "--help"])
                == .help(["tool", "charge"]))
        #expect(try Tool.spec.parse(["help"]) == .help(["tool"]))
        #expect(try Tool.spec.parse(["--data-dir", "/d", "help", "store", "use"]) == .help(["tool", "store", "use"]))
        #expect(try Tool.spec.parse(["--version"]) == .version)
        #expect(
            Tool.mistake(["help", "nosuch"])?.kind == .unknownCommand("nosuch"), "no help for a command that is not")
        #expect(Tool.mistake(["nosuch", "--help"])?.kind == .unknownCommand("nosuch"))
        #expect(try Tool.spec.parse(["decline", "--text", "-h", "--help"]) == .help(["tool", "decline"]))
    }
}

extension ParsingTests {
    @Test func versionTakesNoWords() throws {
        #expect(try Tool.spec.parse(["--data-dir", "/d", "--version"]) == .version)
        let extra = Tool.mistake(["--version", "extra"])
        #expect(extra?.kind == .unexpectedArgument("extra"))
        #expect(extra?.message == "unexpected argument \"extra\" after --version")
        #expect(extra?.command == ["tool"])
        #expect(Tool.mistake(["--version", "charge", "k"])?.kind == .unexpectedArgument("charge"), "nor a command")
    }

    @Test func helpHelpIsTheHelpOfTheHelpCommand() throws {
        #expect(try Tool.spec.parse(["help", "help"]) == .help(["tool", "help"]))
        let help = Tool.spec.helpText(for: ["tool", "help"])
        #expect(help.hasPrefix("Usage: tool help [COMMAND]"), "\(help)")
        #expect(help.contains("the command whose help to show"), "\(help)")
        #expect(Tool.mistake(["help", "help", "charge"])?.kind == .unexpectedArgument("charge"))
        #expect(try Tool.spec.parse(["help", "charge"]) == .help(["tool", "charge"]), "other help as it was")
    }
}
