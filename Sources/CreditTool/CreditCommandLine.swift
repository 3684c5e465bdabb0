import OptionParsing

/// The `credit` command line, declared: the root command and the options every command takes. Each command declares
/// itself (see ``CreditCommands``); parsing and help both come from the declarations (see OptionParsing).
enum CreditCommandLine {
    /// What `credit --version` prints.
    static let version = "credit 0.9.0"

    static let dataDirectory = Option.string(
        .dataDir, "DIR",
        help: "the data directory (default: $CREDIT_DATA_DIR, else $XDG_DATA_HOME/voicedebrief, "
            + "else $HOME/.local/share/voicedebrief)"
    ).inherited()
    static let json = Option.flag(.json, help: "output for scripts").inherited()

    static let spec = CommandSpec(
        "credit", summary: "the VoiceDebrief credit, in a terminal.",
        discussion: """
            The balance starts at £5.00, counts down as the app is used, may go below zero, and never blocks anything.
            """,
        options: [dataDirectory.spec, json.spec],
        subcommands: CreditCommands.all.map(\.spec),
        defaultSubcommand: ScreenCommand.configuration.name, hasHelpCommand: true,
        epilogue: """
            Exit status: 0 done; 1 failed (the message says why); 64 the command line is wrong. With --json a
            failure also prints {"error": {"kind": "usage"|"failure", "message": …}} on standard output.
            Colour is used only on a terminal, and never when NO_COLOR is set.
            """, version: version)
}
