import OptionParsing

/// A small program shaped like the real ones: inherited options, a default command, a help command, nested
/// subcommands, every kind of option and positional.
enum Tool {
    static let charge = CommandSpec(
        "charge", summary: "charge one act",
        options: [
            .integer(.seconds, "S", in: 1...360_000, help: "length of the audio"),
            .integer(.quantity, "N", in: 0...Int64.max, help: "how many"),
            .string(.subject, "ID", maxBytes: 8, help: "what it was for"),
            .flag(.autoOpen, help: "opened by itself"),
        ],
        positionals: [PositionalSpec(.key, help: "the key of the act")])

    static let spec = CommandSpec(
        "tool", summary: "a tool for tests.", discussion: "It does little.",
        options: [
            .string(.dataDir, "DIR", help: "the data directory").inherited(),
            .flag(.json, help: "output for scripts").inherited(),
        ],
        subcommands: [
            CommandSpec("screen", summary: "the screen"),
            charge,
            CommandSpec(
                "decline", summary: "decline a charge",
                options: [
                    .choice(.reason, ["not-usable", "test", "other"], help: "why").required(),
                    .string(.text, "T", help: "your words").allowingEmpty(),
                ],
                positionals: [PositionalSpec(.entryId)]),
            CommandSpec(
                "merge", summary: "merge files", positionals: [PositionalSpec(.file, help: "files", repeating: true)]),
            CommandSpec(
                "verify", summary: "verify",
                positionals: [PositionalSpec(.file, optional: true, repeating: true)]),
            CommandSpec(
                "switch", summary: "on or off", positionals: [PositionalSpec(.onOrOff, choices: ["on", "off"])]),
            CommandSpec(
                "store", summary: "show or choose the store",
                subcommands: [
                    CommandSpec(
                        "use", summary: "choose",
                        subcommands: [
                            CommandSpec("simulated", summary: "no money"),
                            CommandSpec(
                                "mockstore", summary: "the mock store",
                                options: [
                                    .string(.url, "URL", help: "where").required(),
                                    .string(.key, "K=FILE", help: "a key").repeatable(),
                                ]),
                        ], subcommandNoun: "store")
                ], runsWithoutSubcommand: true, subcommandNoun: "store command", usageListsSubcommands: true),
        ], defaultSubcommand: "screen", hasHelpCommand: true, epilogue: "Exit status: 0, 1 or 64.", version: "tool 1.0")

    static func run(_ words: String...) throws(UsageError) -> ParsedArguments {
        guard case .run(let parsed) = try spec.parse(words) else { return ParsedArguments(path: ["not run"]) }
        return parsed
    }

    static func mistake(_ words: [String]) -> UsageError? {
        do {
            _ = try spec.parse(words)
            return nil
        } catch {
            return error
        }
    }
}
