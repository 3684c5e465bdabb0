import DurableFiles
import Foundation
import Platform
import Synchronization

/// Where a run of `credit` writes its words: the process's standard output or error, or a place of the caller's
/// (a test's buffer, a descriptor).
///
/// Output that could not be written is a failure of the command: ``flush()``, called when the command has run,
/// writes out what is still held and says the first write that failed, so `credit balance >/dev/full` ends with
/// exit 1 and "cannot write the output: no space left on device", never a silent 0.
public struct CommandOutput: Sendable {
    private let sink: @Sendable (String) -> Void
    private let flusher: @Sendable () -> Int32?

    /// Words go to `sink`, a piece at a time, in the order they were written; it never fails.
    public init(_ sink: @escaping @Sendable (String) -> Void) {
        self.init(sink, flush: { nil })
    }

    /// Words go to `sink`; `flush`, once the command has run, writes out what `sink` holds and gives the system's
    /// error number (`errno`) of the first write that failed (`ENOSPC`, `EIO`), or nil when everything was written.
    public init(_ sink: @escaping @Sendable (String) -> Void, flush: @escaping @Sendable () -> Int32?) {
        self.sink = sink
        self.flusher = flush
    }

    func write(_ text: String) { sink(text) }

    /// Writes out what is held; the error number of the first write that failed, or nil when all was written.
    func flush() -> Int32? { flusher() }

    /// The process's standard output, buffered (a long history is not a write a line), a line at a time on a
    /// terminal.
    public static let standardOutput = CommandOutput.descriptor(STDOUT_FILENO)

    /// The open descriptor `fd` (not closed here), buffered as ``standardOutput`` is, every failed write kept for
    /// ``flush()``.
    public static func descriptor(_ fd: Int32) -> CommandOutput {
        let writer = DescriptorWriter(fd)
        return CommandOutput({ writer.write($0) }, flush: { writer.flush() })
    }

    /// The process's standard error, unbuffered.
    public static let standardError = CommandOutput { text in
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// Why output could not be written, in plain words: "cannot write the output: no space left on device".
enum OutputFailure {
    static func words(_ errno: Int32) -> String {
        let reason = String(cString: strerror(errno))
        return "cannot write the output: " + reason.prefix(1).lowercased() + reason.dropFirst()
    }
}

/// Bytes to a descriptor with `write(2)`, held until 64 KiB gather (or a line ends, on a terminal), every write's
/// failure kept: after the first, nothing more is written, and ``flush()`` says it.
private final class DescriptorWriter: Sendable {
    private struct State {
        var held: [UInt8] = []
        var failure: Int32?
    }

    private let fd: Int32
    private let isTerminal: Bool
    private let state = Mutex(State())
    private static let holds = 64 * 1024

    init(_ fd: Int32) {
        self.fd = fd
        isTerminal = isatty(fd) == 1
    }

    func write(_ text: String) {
        state.withLock { state in
            guard state.failure == nil else { return }
            state.held.append(contentsOf: text.utf8)
            if state.held.count >= Self.holds || (isTerminal && state.held.last == 0x0A) { drain(&state) }
        }
    }

    func flush() -> Int32? {
        state.withLock { state in
            drain(&state)
            return state.failure
        }
    }

    /// Writes everything held; a failure is kept and the rest dropped.
    private func drain(_ state: inout State) {
        defer { state.held.removeAll(keepingCapacity: true) }
        guard state.failure == nil, !state.held.isEmpty else { return }
        do {
            try state.held.withUnsafeBytes { try Files.writeAll(fd: fd, $0, path: "standard output") }
        } catch let error as FileError {
            state.failure = error.errno
        } catch {
            state.failure = EIO
        }
    }
}

/// Words kept in memory, for a caller that reads them once the command has run.
public final class CapturedOutput: Sendable {
    private let text = Mutex("")

    public init() {}

    /// Where to write, for ``CreditTool/run(arguments:environment:dataDirectory:input:output:errors:outputIsTerminal:)``.
    public var output: CommandOutput {
        CommandOutput { piece in self.text.withLock { $0 += piece } }
    }

    /// Everything written so far.
    public var written: String { text.withLock { $0 } }
}

/// What a run of `credit` reads as its standard input (only `credit import` reads any).
public struct CommandInput: Sendable {
    private let source: @Sendable () -> Data

    /// Input read, when a command asks for it, from `source`.
    public init(_ source: @escaping @Sendable () -> Data) {
        self.source = source
    }

    /// Everything there is to read.
    func readAll() -> Data { source() }

    /// The process's standard input, read to its end.
    public static let standardInput = CommandInput { FileHandle.standardInput.readDataToEndOfFile() }

    /// `text`, as if typed or piped in.
    public static func text(_ text: String) -> CommandInput { CommandInput { Data(text.utf8) } }
}
