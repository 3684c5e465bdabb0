import Foundation
import OptionParsing
import Platform

/// SIGINT and SIGTERM for a process that stops on them: `credit sync DIR --watch`.
///
/// A watch reads them through dispatch signal sources, which on Linux take them from a signalfd; a signalfd sees
/// only signals that are blocked, and pending, in every thread. So they are blocked at the very start of the
/// process, before any thread exists (threads inherit the mask), and a signal that comes while the process is still
/// starting up (opening the ledger, its first round) stays pending until the watch's sources take it: it ends the
/// watch cleanly, never the process by the default action. (`mockstore` does the same.) Before `main` runs a process
/// can do nothing, so the `credit` executable is a static launcher that blocks them and then becomes this program
/// (`Sources/credit-launcher`): a signal that comes while the dynamic loader maps the libraries (some 20 ms on a busy
/// machine) is already blocked, and stays pending.
enum StopSignals {
    /// SIGINT and SIGTERM.
    static var set: sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        return signals
    }

    /// Blocks SIGINT and SIGTERM in the calling thread, and so in every thread it starts afterwards.
    static func block() {
        var signals = set
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// Unblocks SIGINT and SIGTERM in the calling thread: a command that is no watch stops on them as any does.
    static func unblock() {
        var signals = set
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Whether `signal` is blocked in the calling thread: the process blocked the stop signals at its start.
    static func isBlocked(_ signal: Int32) -> Bool {
        var current = sigset_t()
        guard pthread_sigmask(SIG_BLOCK, nil, &current) == 0 else { return false }
        return sigismember(&current, signal) == 1
    }

    /// Whether `arguments` (what follows the program's name) are a command that stops on SIGINT and SIGTERM: a
    /// watching sync. A command line that does not parse is not one (it fails at once, as it would anyway).
    static func areAwaited(by arguments: [String]) -> Bool {
        guard case .run(let args) = try? CreditCommandLine.spec.parse(arguments),
            let command = try? CreditCommands.command(for: args)
        else { return false }
        return command.awaitsStopSignals
    }
}
