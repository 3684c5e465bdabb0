/// The exit statuses of every command in the package (`credit`, `mockstore`, `credit-summary-verify`): 0 done, 1 a
/// failure the message explains, 64 a mistake in the command line (sysexits' `EX_USAGE`). The one place an error
/// becomes a status.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    case failure = 1
    case usage = 64

    /// The status of a command that stopped with `error`: 64 for a ``UsageError`` or an error that says it is a
    /// command-line mistake (``UsageMistake``), 1 for anything else.
    public init(for error: any Error) {
        if error is UsageError || (error as? any UsageMistake)?.isUsageMistake == true {
            self = .usage
        } else {
            self = .failure
        }
    }
}

/// An error that may be a mistake in the command line (a value the parser could not judge, found later).
public protocol UsageMistake: Error {
    /// Whether the command line was wrong, so the exit status is 64.
    var isUsageMistake: Bool { get }
}
