import Foundation
import Synchronization

/// The `credit` command as a library: one run of it, in the calling process. The `credit` executable is this over the
/// process's own arguments, environment and standard streams; a test suite runs commands side by side through it,
/// each with its own environment and words.
public enum CreditTool {
    /// Runs `credit` with `arguments` (what follows the program's name) and returns its exit status: 0 done, 1 a
    /// failure it explained, 64 a mistake in the command line.
    ///
    /// - Parameters:
    ///   - environment: what the command reads of its environment (`CREDIT_DATA_DIR`, `HOME`, `CREDIT_NOW`,
    ///     `NO_COLOR`, `TERM`, `CREDIT_STORE_TIMEOUT`, `MOCKSTORE_CUSTOMER`); nothing else of the process's is read.
    ///   - dataDirectory: the data directory when the command line gives no `--data-dir`; nil to find it from
    ///     `environment` as the executable does.
    ///   - input: its standard input.
    ///   - output: where its standard output goes.
    ///   - errors: where its standard error goes.
    ///   - outputIsTerminal: whether `output` is a terminal (colour is drawn only there, and never with `NO_COLOR`).
    public static func run(
        arguments: [String], environment: [String: String], dataDirectory: String? = nil,
        input: CommandInput = .standardInput, output: CommandOutput = .standardOutput,
        errors: CommandOutput = .standardError, outputIsTerminal: Bool = false
    ) async -> Int32 {
        await run(
            CreditCLI(arguments: arguments), environment: environment, dataDirectory: dataDirectory, input: input,
            output: output, errors: errors, outputIsTerminal: outputIsTerminal)
    }

    /// ``run(arguments:environment:dataDirectory:input:output:errors:outputIsTerminal:)`` on the arguments as a
    /// program receives them, bytes: one that is not valid UTF-8 is a mistake in the command line (exit 64, naming
    /// its position), and nothing runs.
    public static func run(
        rawArguments: [[UInt8]], environment: [String: String], dataDirectory: String? = nil,
        input: CommandInput = .standardInput, output: CommandOutput = .standardOutput,
        errors: CommandOutput = .standardError, outputIsTerminal: Bool = false
    ) async -> Int32 {
        await run(
            CreditCLI(rawArguments: rawArguments), environment: environment, dataDirectory: dataDirectory,
            input: input, output: output, errors: errors, outputIsTerminal: outputIsTerminal)
    }

    /// Runs `cli` with its own console: the streams, environment and data directory given.
    private static func run(
        _ cli: CreditCLI, environment: [String: String], dataDirectory: String?, input: CommandInput,
        output: CommandOutput, errors: CommandOutput, outputIsTerminal: Bool
    ) async -> Int32 {
        let console = Console(
            output: output, errors: errors, environment: environment, input: input,
            outputIsTerminal: outputIsTerminal, dataDirectory: dataDirectory)
        return await Console.$current.withValue(console) { await cli.run() }
    }

    /// The `credit` executable: runs `credit` on the process's arguments, environment and standard streams, and
    /// exits with its status. Called first thing in `main`, before any thread exists: a watching sync blocks SIGINT
    /// and SIGTERM here, in the one thread there is, so that every thread inherits the mask and a stop signal sent
    /// at any moment waits for the watch to take it (see ``StopSignals``). The command runs on the concurrency
    /// pool while this thread waits for it with the signals still blocked (not `dispatchMain()`, which on Linux
    /// waits with every signal unblocked and would take a stop signal by its default action).
    public static func processMain() -> Never {
        // Blocked first, then the command line read (which takes a while): any other command unblocks them again,
        // still before a thread exists, and one that came meanwhile then acts as it always did.
        StopSignals.block()
        if !StopSignals.areAwaited(by: Array(CommandLine.arguments.dropFirst())) { StopSignals.unblock() }
        let finished = DispatchSemaphore(value: 0)
        let status = EndedStatus()
        Task.detached {
            status.set(await runAsProcess())
            finished.signal()
        }
        finished.wait()
        exit(status.value)
    }

    /// Runs `credit` as the executable does: the process's arguments (as the bytes it received: see
    /// ``run(rawArguments:environment:dataDirectory:input:output:errors:outputIsTerminal:)``), environment and
    /// standard streams.
    public static func runAsProcess() async -> Int32 {
        await Console.$current.withValue(.process) {
            await CreditCLI(rawArguments: RawArguments.ofProcess).run()
        }
    }
}

/// The exit status a command ended with, handed from the task that ran it to the thread that exits.
private final class EndedStatus: Sendable {
    private let status = Mutex<Int32>(CreditCLI.failure)

    var value: Int32 { status.withLock { $0 } }

    func set(_ value: Int32) { status.withLock { $0 = value } }
}
