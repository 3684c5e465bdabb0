import OptionParsing

/// One `credit` command as a type: its declaration, its values typed (``ParsableCommand``), and what it does on a
/// data directory (``run(_:)``). ``CreditCommands`` lists every one.
protocol CreditCommand: ParsableCommand {
    /// Runs the command on its data directory; the exit status (a failure it explains is thrown).
    func run(_ context: Context) async throws -> Int32

    /// What the command does with a data directory that holds no account yet (see ``NewDataDirectory``).
    var accountUse: AccountUse { get }

    /// Whether the command runs until SIGINT or SIGTERM, which it takes itself (a watching sync).
    var awaitsStopSignals: Bool { get }
}

extension CreditCommand {
    var accountUse: AccountUse { .makes }
    var awaitsStopSignals: Bool { false }
}

/// What a command does with a data directory that holds no account yet.
enum AccountUse: Equatable {
    /// Makes the account there (a failure removes what it made).
    case makes
    /// Only reads: it shows what a new account shows, from a scratch directory, and writes nothing there.
    case reads
    /// Needs an account that exists: refused there, saying it has no `lacking` (a summary to export, devices).
    case needsAccount(lacking: String)
}
