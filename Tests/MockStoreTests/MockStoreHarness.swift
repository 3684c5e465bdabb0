import Foundation
import FoundationNetworking
import Synchronization
import Testing

/// The real `mockstore` binary, run as a child process for end-to-end tests. Always stopped: by the test
/// (``stop(signal:)``) or, failing that, killed when the harness is released.
final class MockStoreHarness {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// What a finished run printed and how it ended.
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The built binary: `$MOCKSTORE_BINARY`, else `mockstore` next to the test executable (the scratch path's
    /// debug folder).
    static func binaryPath() throws -> String {
        if let override = ProcessInfo.processInfo.environment["MOCKSTORE_BINARY"], !override.isEmpty {
            return override
        }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let candidate = executable.deletingLastPathComponent().appendingPathComponent("mockstore").path
        guard FileManager.default.isExecutableFile(atPath: candidate) else {
            throw Failure(
                description: """
                    the mockstore binary is not built: looked for \(candidate) (next to the test executable). \
                    Build it with `swift build --scratch-path <the same scratch path> --product mockstore`, \
                    or set MOCKSTORE_BINARY.
                    """)
        }
        return candidate
    }

    let process: Process
    let dataDirectory: String
    let port: UInt16
    let baseURL: String
    private let stderrPath: String
    private var stopped = false

    /// Starts `mockstore --port 0 --data dataDirectory --catalogue <repo catalogue> extraArguments` and waits
    /// for its listening line.
    init(dataDirectory: String, extraArguments: [String] = [], catalogue: String = Repository.catalogue) throws {
        self.dataDirectory = dataDirectory
        stderrPath = dataDirectory + ".stderr"
        guard FileManager.default.createFile(atPath: stderrPath, contents: nil) else {
            throw Failure(description: "cannot create \(stderrPath)")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.binaryPath())
        process.arguments = ["--port", "0", "--data", dataDirectory, "--catalogue", catalogue] + extraArguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        process.standardInput = FileHandle.nullDevice
        try process.run()

        let line = Self.readLine(from: output.fileHandleForReading, timeout: 30)
        let prefix = "mockstore listening on http://127.0.0.1:"
        guard let line, line.hasPrefix(prefix), let port = UInt16(line.dropFirst(prefix.count)) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let stderr = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
            throw Failure(description: "mockstore did not start: stdout \(line.debugDescription), stderr \(stderr)")
        }
        self.port = port
        baseURL = "http://127.0.0.1:\(port)"
    }

    deinit {
        if !stopped && process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// What the store wrote to stderr so far.
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Sends `signal` and waits (up to `timeout` seconds, then SIGKILL) for the exit status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM, timeout: TimeInterval = 20) throws -> Int32 {
        stopped = true
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, signal)
        guard Self.waitForExit(process, timeout: timeout) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw Failure(description: "mockstore did not stop within \(timeout) s of signal \(signal); killed")
        }
        return process.terminationStatus
    }

    /// Whether the process is still running (it must survive bad requests).
    var isRunning: Bool { process.isRunning }

    /// Runs `mockstore arguments` to completion (for usage and start-up failures).
    static func run(_ arguments: [String], timeout: TimeInterval = 30) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try binaryPath())
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        guard waitForExit(process, timeout: timeout) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw Failure(description: "mockstore \(arguments) did not exit within \(timeout) s; killed")
        }
        return Outcome(
            status: process.terminationStatus,
            stdout: String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            stderr: String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    // MARK: HTTP

    /// A response: status, `Content-Type` exactly as sent, body.
    struct Response {
        var status: Int
        var contentType: String?
        var body: [UInt8]

        func decoded<Body: Decodable>(_ type: Body.Type) throws -> Body {
            do {
                return try JSONDecoder().decode(type, from: Data(body))
            } catch {
                throw Failure(description: "body is not \(type): \(String(decoding: body, as: UTF8.self))")
            }
        }
    }

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 20
        return URLSession(configuration: configuration)
    }()

    func request(
        _ method: String, _ path: String, body: [UInt8]? = nil, headers: [String: String] = [:]
    ) async throws -> Response {
        var request = URLRequest(url: try #require(URL(string: baseURL + path)))
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let (data, response) = try await Self.session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return Response(
            status: http.statusCode, contentType: http.value(forHTTPHeaderField: "Content-Type"), body: Array(data))
    }

    func get(_ path: String) async throws -> Response {
        try await request("GET", path)
    }

    func post(_ path: String, json: String) async throws -> Response {
        try await request("POST", path, body: Array(json.utf8))
    }

    /// Runs `mockstore control --url <this store> arguments` to completion.
    func control(_ arguments: String...) throws -> Outcome {
        try Self.run(["control", "--url", baseURL] + arguments)
    }

    /// Runs a control that must succeed and decodes its JSON answer.
    func control<Body: Decodable>(
        _ type: Body.Type, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Body {
        let outcome = try Self.run(["control", "--url", baseURL] + arguments)
        #expect(outcome.status == 0, "control \(arguments) failed: \(outcome.stderr)", sourceLocation: sourceLocation)
        do {
            return try JSONDecoder().decode(type, from: Data(outcome.stdout.utf8))
        } catch {
            throw Failure(description: "control \(arguments) printed no \(type): \(outcome.stdout) \(outcome.stderr)")
        }
    }

    // MARK: Helpers

    private static func readLine(from handle: FileHandle, timeout: TimeInterval) -> String? {
        let result = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        let descriptor = handle.fileDescriptor
        Thread.detachNewThread {
            var bytes: [UInt8] = []
            var byte: UInt8 = 0
            while read(descriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") {
                bytes.append(byte)
            }
            result.withLock { $0 = String(decoding: bytes, as: UTF8.self) }
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success else { return nil }
        return result.withLock { $0 }
    }

    private static func waitForExit(_ process: Process, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            guard Date() < deadline else { return false }
            usleep(20_000)
        }
        return true
    }
}
