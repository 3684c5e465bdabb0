import Foundation
import Platform
import Synchronization

/// The `mockstore` process behind a ``TestStore``: started by Foundation, its standard output read by a dispatch
/// source (so the listening line is seen the moment it is written) and its exit told by Foundation's termination
/// handler, so nothing polls and no thread of the cooperative pool waits.
final class StoreChild: Sendable {
    /// How a start ended.
    enum Start: Sendable {
        case listening(url: String, port: UInt16)
        case exited
    }

    let processIdentifier: Int32
    /// Fires once: the listening line, or the exit before it.
    let started = OneShot<Start>()
    /// Fires once, with the exit status (the signal's number when a signal ended it).
    let exited = OneShot<Int32>()
    private let output = OutputBuffer()
    private let outputDirectory: String
    private let stopping = Mutex(false)
    private let process: ProcessBox

    /// Foundation's `Process`, kept only so it lives as long as the child; never touched after the start.
    private struct ProcessBox: @unchecked Sendable {
        let process: Process
    }

    init(_ options: TestStore.Options) throws {
        let binary = try StoreBinary.find(options.binary)
        outputDirectory = NSTemporaryDirectory() + "/mockstore-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: outputDirectory + "/stderr", contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = TestStore.arguments(options)
        var environment = options.processEnvironment ?? ProcessInfo.processInfo.environment
        // The options choose the data and the catalogue, never the test's environment by accident.
        environment["MOCKSTORE_DATA"] = nil
        if options.catalogue != nil { environment["MOCKSTORE_CATALOGUE"] = nil }
        process.environment = environment
        if let directory = options.workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let pipe = Pipe()
        // Not inherited by any other child this process starts meanwhile (the store's own copy is its stdout).
        for descriptor in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        process.standardOutput = pipe
        process.standardError = FileHandle(forWritingAtPath: outputDirectory + "/stderr")
        process.standardInput = FileHandle.nullDevice
        self.process = ProcessBox(process: process)
        let started = started
        let exited = exited
        process.terminationHandler = { ended in
            let status = ended.terminationStatus
            exited.fire(status)
            started.fire(.exited)
        }
        let output = output
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                return
            }
            let text = output.append(data)
            if let found = TestStore.listeningAddress(in: text) {
                started.fire(.listening(url: found.url, port: found.port))
            }
        }
        do {
            try process.run()
        } catch {
            pipe.fileHandleForReading.readabilityHandler = nil
            try? FileManager.default.removeItem(atPath: outputDirectory)
            throw error
        }
        processIdentifier = process.processIdentifier
    }

    deinit {
        try? FileManager.default.removeItem(atPath: outputDirectory)
    }

    var standardOutput: String { output.text }

    var standardError: String {
        String(decoding: FileManager.default.contents(atPath: outputDirectory + "/stderr") ?? Data(), as: UTF8.self)
    }

    /// Sends `signal` while it runs, without waiting.
    func send(_ signal: Int32) {
        if !exited.hasValue { _ = kill(processIdentifier, signal) }
    }

    /// Sends `signal` the first time only, and SIGKILL 20 s later if it has not gone by then.
    func beginStop(_ signal: Int32) {
        let first = stopping.withLock { stopping in
            defer { stopping = true }
            return !stopping
        }
        guard first, !exited.hasValue else { return }
        send(signal)
        DispatchQueue.global().asyncAfter(deadline: .now() + 20) { [self] in send(SIGKILL) }
    }

}

/// What the store wrote to its standard output so far.
final class OutputBuffer: Sendable {
    private let bytes = Mutex(Data())

    /// Adds `data`, and gives everything so far as text.
    func append(_ data: Data) -> String {
        bytes.withLock { bytes in
            bytes.append(data)
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    var text: String { bytes.withLock { String(decoding: $0, as: UTF8.self) } }
}

/// A value that arrives once; waiting for it holds no thread of the cooperative pool (an async wait is a
/// continuation resumed by whoever fires it), and a blocking wait (for code that is not async) a semaphore.
final class OneShot<Value: Sendable>: Sendable {
    private enum Waiter {
        case task(CheckedContinuation<Value?, Never>)
        case thread(DispatchSemaphore)
    }

    private struct State {
        var value: Value?
        var waiting: [UUID: Waiter] = [:]
    }

    private let state = Mutex(State())

    /// Whether the value has arrived.
    var hasValue: Bool { state.withLock { $0.value != nil } }

    /// Gives the value to every waiter, the first time only.
    func fire(_ value: Value) {
        let waiting = state.withLock { state -> [Waiter] in
            guard state.value == nil else { return [] }
            state.value = value
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for waiter in waiting {
            switch waiter {
            case .task(let continuation): continuation.resume(returning: value)
            case .thread(let semaphore): semaphore.signal()
            }
        }
    }

    /// The value once it arrives; nil when `within` (if any) passes first.
    func value(within: Duration?) async -> Value? {
        let id = UUID()
        return await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            let now = state.withLock { state -> Value?? in
                if let value = state.value { return .some(value) }
                state.waiting[id] = .task(continuation)
                return .none
            }
            if let now {
                continuation.resume(returning: now)
            } else if let within {
                DispatchQueue.global().asyncAfter(deadline: .now() + Self.seconds(within)) { self.giveUp(id) }
            }
        }
    }

    /// The value once it arrives, blocking this thread; nil when `within` (if any) passes first.
    func valueBlocking(within: Duration?) -> Value? {
        let id = UUID()
        let semaphore = DispatchSemaphore(value: 0)
        let now = state.withLock { state -> Value?? in
            if let value = state.value { return .some(value) }
            state.waiting[id] = .thread(semaphore)
            return .none
        }
        if let now { return now }
        _ = semaphore.wait(timeout: within.map { .now() + Self.seconds($0) } ?? .distantFuture)
        return state.withLock { state in
            state.waiting[id] = nil
            return state.value
        }
    }

    /// Resumes the async waiter `id` with nil (its time is up), if it still waits.
    private func giveUp(_ id: UUID) {
        guard case .task(let continuation) = state.withLock({ $0.waiting.removeValue(forKey: id) }) else { return }
        continuation.resume(returning: nil)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
