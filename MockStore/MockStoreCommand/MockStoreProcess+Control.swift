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

    /// What a mistake in the command line prints: the error, and where the usage is.
    static func usageWords(_ error: UsageError, arguments: [String]) -> String {
        let help = arguments.first == MockStoreCommandLine.controlWord ? "mockstore control --help" : "mockstore --help"
        return "mockstore: error: \(error.message)\nRun \(help) for usage.\n"
    }
}
