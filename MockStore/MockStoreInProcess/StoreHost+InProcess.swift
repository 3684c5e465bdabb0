import Foundation
import MockStoreCommand
import MockStoreTesting

extension StoreHost {
    /// A store in the test's own process: `mockstore`'s command line and environment read as the binary reads them,
    /// the store started as the binary starts it, on a free port of its own; no binary to build or find and no
    /// process to start. What it cannot do is what only a process does: a signal (any stop is SIGTERM's clean stop),
    /// `--exit-with-parent` (it ends with the test's process anyway), another working directory, or a crash.
    public static let inProcess = StoreHost { arguments, environment in
        // A client that hangs up must not end the test's process, as it must not end the binary's.
        _ = InProcessSignals.ignored
        // Started as the binary starts it; what it would have printed when it does not serve is the failure's words.
        let (outcome, running) = MockStoreProcess.start(arguments: arguments, environment: environment)
        guard let running else { throw StartupError(outcome.stdout + outcome.stderr) }
        return HostedStore(
            url: running.server.baseURL, port: running.server.port, listeningWords: outcome.stdout,
            startupWords: outcome.stderr,
            stop: { signal in MockStoreProcess.stopped(running, signal: signal) })
    }
}

/// SIGPIPE ignored once for the process, as the binary ignores it.
private enum InProcessSignals {
    static let ignored: Bool = {
        signal(SIGPIPE, SIG_IGN)
        return true
    }()
}
