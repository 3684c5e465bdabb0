import OptionParsing
import Testing

/// `--help` is generated from the declarations.
@Suite struct HelpTextTests {}

extension HelpTextTests {
    @Test func theRootHelpListsCommandsAndOptions() {
        let help = Tool.spec.helpText
        #expect(
            help.hasPrefix("tool: a tool for tests.\n\nUsage: tool [--data-dir DIR] [--json] [COMMAND] [ARGUMENTS]\n"))
        #expect(help.contains("\n\nIt does little.\n\n"))
        #expect(help.contains("\n  charge KEY        charge one act\n"))
        #expect(help.contains("\n  merge FILE...     merge files\n"))
        #expect(help.contains("\n  verify [FILE...]  verify\n"))
        #expect(help.contains("\n  store ...         show or choose the store\n"))
        #expect(help.contains("\n  help [COMMAND]    the help of a command\n"))
        #expect(help.contains("\n  --data-dir DIR  the data directory\n"))
        #expect(help.contains("\n  -h, --help      show this help\n"))
        #expect(help.contains("\n  --version       show the version\n"))
        #expect(help.hasSuffix("\n\nExit status: 0, 1 or 64."))
    }

    @Test func aCommandsHelpStatesRangesAndInheritedOptions() {
        let help = Tool.spec.helpText(for: ["tool", "charge"])
        #expect(
            help.hasPrefix(
                "Usage: tool charge KEY [--seconds S] [--quantity N] [--subject ID] [--auto-open] [--data-dir DIR] [--json]\n"
            ))
        #expect(help.contains("Arguments:\n  KEY  the key of the act\n"))
        #expect(help.contains("  --seconds S     length of the audio (1 to 360,000)\n"))
        #expect(help.contains("  --quantity N    how many (at least 0)\n"))
        #expect(help.contains("  --data-dir DIR  the data directory\n"), "inherited options are listed")
        #expect(!help.contains("--version"), "the version is the root's")
    }

    @Test func requiredRepeatableAndChoiceOptionsShowSo() {
        let decline = Tool.spec.helpText(for: ["tool", "decline"])
        #expect(decline.hasPrefix("Usage: tool decline ENTRY-ID --reason not-usable|test|other [--text T]"))
        let store = Tool.spec.helpText(for: ["tool", "store"])
        #expect(
            store.hasPrefix(
                """
                Usage: tool store [--data-dir DIR] [--json]
                       tool store use simulated
                       tool store use mockstore --url URL [--key K=FILE]...
                """))
    }

    @Test func longLinesAreWrapped() {
        let options = (1...12).map { OptionSpec.string(OptionName("--option-\($0)"), "VALUE", help: "") }
        let long = String(repeating: "word ", count: 40)
        let spec = CommandSpec("wide", options: options + [.flag(.veryLongOptionNameIndeed, help: long)])
        let help = spec.helpText
        for line in help.split(separator: "\n") { #expect(line.count <= 116, "\(line)") }
        let column = String(repeating: " ", count: 2 + "--option-10 VALUE".count + 2)
        #expect(
            help.contains("\n  --very-long-option-name-indeed\n" + column + "word word"), "its text on the next line")
        #expect(help.contains("\n  --option-1 VALUE\n"), "the column is as wide as the entries that fit")
        #expect(help.contains("\n            [--option-6 VALUE]"), "the synopsis goes on under the first option")
    }

    @Test func anUnknownPathGivesTheRootHelp() {
        #expect(Tool.spec.helpText(for: ["tool", "nosuch"]) == Tool.spec.helpText)
    }
}
