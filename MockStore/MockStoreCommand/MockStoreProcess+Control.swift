import Foundation

extension MockStoreProcess {
    /// `mockstore control …` (`arguments` without the program name) run in this process: what it prints and its
    /// exit status, exactly as the binary gives them. For a program that embeds the control command, and for the
    /// tests of its command line, which then start no process for it.
    public static func control(arguments: [String], environment: [String: String]) -> ControlInvocation.Outcome {
        do {
            switch try MockStoreCommandLine.parse(arguments, environment: environment) {
            case .control(let invocation):
                return invocation.run()
            case .controlHelp:
                return ControlInvocation.Outcome(
                    status: ExitStatus.success, stdout: ControlInvocation.usage + "\n", stderr: "")
            case .help:
                return ControlInvocation.Outcome(
                    status: ExitStatus.success, stdout: MockStoreCommandLine.usage + "\n", stderr: "")
            case .run:
                return ControlInvocation.Outcome(
                    status: ExitStatus.usage, stdout: "",
                    stderr: "mockstore: error: this runs a store, not a control\n")
            }
        } catch {
            return ControlInvocation.Outcome(
                status: ExitStatus.usage, stdout: "", stderr: usageWords(error, arguments: arguments))
        }
    }

    /// `mockstore arguments` run in this process as far as the binary goes before it serves: what it prints and its
    /// exit status when it ends there (its help, a mistake in the command line, a store that cannot start), or, with
    /// `running`, the store it would serve (whose caller stops it). For the tests of its start-up words, which then
    /// start no process.
    public static func start(arguments: [String], environment: [String: String]) -> (
        outcome: ControlInvocation.Outcome, running: RunningMockStore?
    ) {
        let options: MockStoreOptions
        do {
            guard case .run(let parsed) = try MockStoreCommandLine.parse(arguments, environment: environment) else {
                return (control(arguments: arguments, environment: environment), nil)
            }
            options = parsed
        } catch {
            return (.init(status: ExitStatus.usage, stdout: "", stderr: usageWords(error, arguments: arguments)), nil)
        }
        do {
            let running = try MockStoreLauncher.start(options)
            return (
                .init(status: ExitStatus.success, stdout: listeningWords(running), stderr: startupWords(running)),
                running
            )
        } catch {
            return (.init(status: ExitStatus.failure, stdout: "", stderr: failureWords(error)), nil)
        }
    }

    /// What a store that cannot start prints.
    static func failureWords(_ error: StartupError) -> String {
        "mockstore: error: \(error.message)\n"
    }

    /// What a mistake in the command line prints: the error, and where the usage is.
    static func usageWords(_ error: UsageError, arguments: [String]) -> String {
        let help = arguments.first == MockStoreCommandLine.controlWord ? "mockstore control --help" : "mockstore --help"
        return "mockstore: error: \(error.message)\nRun \(help) for usage.\n"
    }
}
