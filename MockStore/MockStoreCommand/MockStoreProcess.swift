import Dispatch
import Foundation
import MockStoreServer
import OptionParsing
import Platform

/// The `mockstore` process: parse, start, print the listening line, serve until SIGINT or SIGTERM, stop.
///
/// Lives in the library (not `main.swift`) so that the signal handlers are ordinary nonisolated closures.
public enum MockStoreProcess {
    /// Exit statuses, from the one place every command takes them (OptionParsing's `ExitStatus`).
    public enum ExitStatus {
        public static let success = OptionParsing.ExitStatus.success.rawValue
        public static let failure = OptionParsing.ExitStatus.failure.rawValue
        public static let usage = OptionParsing.ExitStatus.usage.rawValue
    }

    /// Runs `mockstore` with `arguments` (without the program name). Never returns.
    public static func main(arguments: [String], environment: [String: String]) -> Never {
        // Who started us, read first: `--exit-with-parent` stops when this is no longer our parent.
        let parentFound = getppid()
        let options: MockStoreOptions
        do {
            switch try MockStoreCommandLine.parse(arguments, environment: environment) {
            case .help:
                write(MockStoreCommandLine.usage + "\n", to: STDOUT_FILENO)
                exit(ExitStatus.success)
            case .run(let parsed):
                options = parsed
            case .controlHelp:
                write(ControlInvocation.usage + "\n", to: STDOUT_FILENO)
                exit(ExitStatus.success)
            case .control(let invocation):
                signal(SIGPIPE, SIG_IGN)
                let outcome = invocation.run()
                write(outcome.stdout, to: STDOUT_FILENO)
                write(outcome.stderr, to: STDERR_FILENO)
                exit(outcome.status)
            }
        } catch {
            write(usageWords(error, arguments: arguments), to: STDERR_FILENO)
            exit(ExitStatus.usage)
        }

        // A client that hangs up must not kill the process; the signals are taken over by dispatch sources.
        signal(SIGPIPE, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        // And blocked in every thread, before any starts (threads inherit the mask): dispatch reads them from
        // a signalfd, which sees only blocked, pending signals. One sent before the sources exist stays pending.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        if options.exitWithParent { sigaddset(&stopSignals, parentEnded) }
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
        let parent = options.exitWithParent ? parentToWatch(options, found: parentFound) : parentFound

        let running: RunningMockStore
        do {
            running = try MockStoreLauncher.start(options)
        } catch {
            write(failureWords(error), to: STDERR_FILENO)
            exit(ExitStatus.failure)
        }

        let queue = DispatchQueue(label: "mockstore.signals")
        let sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                stop(running, signal: number)
            }
            source.resume()
            return source
        }

        let watcher = options.exitWithParent ? watchParent(parent, running, on: queue) : []
        write(startupWords(running), to: STDERR_FILENO)
        // One write: the console's line never comes before the listening line a launcher waits for.
        write(listeningWords(running), to: STDOUT_FILENO)
        // Not dispatchMain(): on Linux it waits in sigsuspend with every signal unblocked, so a stop signal
        // could be taken by the main thread (and lost) instead of reaching the signal sources.
        while true {
            withExtendedLifetime((sources, watcher)) { _ = pause() }
        }
    }

    /// The signal Linux sends (`PR_SET_PDEATHSIG`) when the thread that started the store ends.
    private static let parentEnded = SIGUSR1

    /// The process `--exit-with-parent` watches: `--parent-pid`, else the parent `found` when the store began. Asks
    /// Linux to tell at once when it ends, then exits (0, as on SIGTERM, before anything starts) if it has already
    /// gone: the parent is not the one named, or, with none named, the store was handed to init (pid 1) before it
    /// could read who started it (`bash -c 'mockstore --exit-with-parent &'`: the shell may end first).
    private static func parentToWatch(_ options: MockStoreOptions, found: pid_t) -> pid_t {
        let parent = options.parentPid ?? found
        // After this a parent that ends is signalled (``parentEnded``); one gone before is caught below.
        _ = Platform.signalWhenParentEnds(parentEnded)
        let now = getppid()
        let gone: String? =
            if let named = options.parentPid, now != named {
                "the process that started it (pid \(named), --parent-pid) is gone or is not its parent "
                    + "(its parent is pid \(now))"
            } else if options.parentPid == nil && found == 1 {
                "the process that started it was gone before it could look (its parent is init, pid 1; a "
                    + "store that init starts is given --parent-pid 1)"
            } else if now != parent {
                "the process that started it (pid \(parent)) is gone"
            } else {
                nil
            }
        guard let gone else { return parent }
        write("mockstore: not starting: \(gone)\n", to: STDERR_FILENO)
        exit(ExitStatus.success)
    }

    /// Stops the store, as SIGTERM does, once `parent` is no longer this process's parent (it died: the process
    /// was handed to init or a subreaper). On Linux the kernel says so at once (``parentEnded``, sent too when only
    /// the starting thread ends, so `getppid` decides); a poll five times a second is the net, and the only way
    /// where there is no such signal.
    private static func watchParent(_ parent: pid_t, _ running: RunningMockStore, on queue: DispatchQueue)
        -> [any DispatchSourceProtocol]
    {
        let check = {
            guard getppid() != parent else { return }
            write("mockstore: the process that started it is gone\n", to: STDERR_FILENO)
            stop(running, signal: SIGTERM)
        }
        let signal = DispatchSource.makeSignalSource(signal: parentEnded, queue: queue)
        signal.setEventHandler(handler: check)
        signal.resume()
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now(), repeating: .milliseconds(200))
        timer.setEventHandler(handler: check)
        timer.resume()
        return [signal, timer]
    }

    private static func stop(_ running: RunningMockStore, signal number: Int32) -> Never {
        let (status, words) = stopped(running, signal: number)
        write(words, to: STDERR_FILENO)
        exit(status)
    }

    /// Stops `running` as a stop signal does (`signal`: SIGINT, else SIGTERM is said): the exit status and the
    /// words for standard error.
    public static func stopped(_ running: RunningMockStore, signal number: Int32) -> (status: Int32, words: String) {
        let name = number == SIGINT ? "SIGINT" : "SIGTERM"
        do {
            try running.stop()
        } catch {
            return (ExitStatus.failure, "mockstore: error: stopping on \(name): \(error)\n")
        }
        return (ExitStatus.success, "mockstore: stopped on \(name)\n")
    }

    /// The listening line a launcher waits for, then the console's line, as standard output has them.
    public static func listeningWords(_ running: RunningMockStore) -> String {
        running.listeningLine + "\n" + running.consoleLine + "\n"
    }

    /// What the store says on standard error as it starts: how it checks bearer tokens, where notifications go, the
    /// catalogue, the signing and where the data is.
    public static func startupWords(_ running: RunningMockStore) -> String {
        let catalogue = running.catalogue
        let options = running.options
        var signing = options.signing.rawValue
        switch options.signing {
        case .es256:
            signing +=
                " (test CA \(running.dataDirectory.map { "in " + $0.certificateAuthorityPath } ?? "in memory, new"))"
        case .hs256:
            signing += " (secret from \(options.secretFile ?? ""))"
        case .none:
            signing += " (transactions are NOT signed)"
        }
        let keys =
            options.apiKeys.isEmpty
            ? "mockstore: Server API: no --api-key given: any well-formed ES256 bearer token is accepted, its "
                + "signature NOT checked\n"
            : "mockstore: Server API: bearer tokens checked with the keys \(options.apiKeys.map(\.keyId).joined(separator: ", "))\n"
        let notify =
            options.notifyURL.map {
                options.environment == .sandbox
                    // Apple's sandbox sends each notification once, with no retries.
                    ? "mockstore: notifications to \($0) (the sandbox tries each once, no retries)\n"
                    : "mockstore: notifications to \($0) (retries after 1, 12, 24, 48, 72 × "
                        + "\(options.notifyRetryBaseMilliseconds) ms, \(options.notifyMaxAttempts) tries at most)\n"
            } ?? "mockstore: notifications: no --notify URL; recorded, not sent\n"
        return keys + notify + """
            mockstore: catalogue \(running.cataloguePath) (version \(catalogue.version), \(catalogue.products.count) \
            \(catalogue.products.count == 1 ? "product" : "products"), storefront \(catalogue.storefront.code), \
            locale \(catalogue.locale))
            mockstore: signing \(signing), bundle id \(options.bundleId)
            mockstore: \(running.dataDirectory.map { "data in " + $0.path } ?? "data in memory (--ephemeral): nothing is written to disk")

            """
    }

    /// Writes straight to the descriptor (no buffer to flush): the listening line must reach a pipe before
    /// anyone waits for it.
    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}

// The C call under a name the method above does not shadow (Glibc and Darwin alike).
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, bytes, count) }
