import Foundation
import Synchronization

/// Where a run of `credit` writes its words: the process's standard output or error, or a place of the caller's
/// (a test's buffer).
public struct CommandOutput: Sendable {
    private let sink: @Sendable (String) -> Void

    /// Words go to `sink`, a piece at a time, in the order they were written.
    public init(_ sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
    }

    func write(_ text: String) { sink(text) }

    /// The process's standard output, buffered as `print`'s is (a long history is not a write a line).
    public static let standardOutput = CommandOutput { text in
        Swift.print(text, terminator: "")
    }

    /// The process's standard error, unbuffered.
    public static let standardError = CommandOutput { text in
        FileHandle.standardError.write(Data(text.utf8))
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
