import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one run of the `credit` binary did.
struct CommandResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String

    var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }

    /// Standard output read as JSON.
    func json() throws -> Any {
        try JSONSerialization.jsonObject(with: Data(stdout.utf8), options: [.fragmentsAllowed])
    }

    func jsonObject() throws -> [String: Any] {
        try #require(try json() as? [String: Any], "not a JSON object: \(stdout)")
    }

    func jsonArray() throws -> [[String: Any]] {
        try #require(try json() as? [[String: Any]], "not a JSON array of objects: \(stdout)")
    }
}

/// Runs the built `credit` binary, found beside the test bundle (the build folder).
enum Credit {
    /// The binary, or nil when it was not built.
    static let binary: String? = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let executable =
            count > 0
            ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : CommandLine.arguments[0]
        var directory = (executable as NSString).deletingLastPathComponent
        // On Darwin the test bundle's executable is inside Foo.xctest/Contents/MacOS.
        if directory.hasSuffix("/Contents/MacOS") {
            directory = ((directory as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
            directory = (directory as NSString).deletingLastPathComponent
        }
        let path = directory + "/credit"
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()

    static func requireBinary(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try #require(
            binary,
            """
            the `credit` binary is not in the build folder beside the test bundle; build it first: \
            swift build --scratch-path <path> (then swift test --scratch-path <path> --skip-build)
            """,
            sourceLocation: sourceLocation)
    }

    /// Runs `credit` with `arguments` (the data directory first when given), `NO_COLOR=1`, a fixed `CREDIT_NOW`
    /// when given, and a HOME of its own so nothing outside the test's directories is touched.
    static func run(
        _ arguments: [String], dataDirectory: String?, now: String? = nil, environment: [String: String] = [:],
        input: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CommandResult {
        let binary = try requireBinary(sourceLocation: sourceLocation)
        let scratch = try TemporaryDirectory(prefix: "credit-run")
        var env = ProcessInfo.processInfo.environment
        for name in ["CREDIT_DATA_DIR", "XDG_DATA_HOME", "CREDIT_NOW", "CREDIT_FAULT", "TERM"] { env[name] = nil }
        env["NO_COLOR"] = "1"
        env["HOME"] = scratch.path
        if let now { env["CREDIT_NOW"] = now }
        for (name, value) in environment { env[name] = value }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = (dataDirectory.map { ["--data-dir", $0] } ?? []) + arguments
        process.environment = env
        let outPath = scratch.path + "/stdout"
        let errPath = scratch.path + "/stderr"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardOutput = out
        process.standardError = err
        if let input {
            let inPath = scratch.path + "/stdin"
            _ = FileManager.default.createFile(atPath: inPath, contents: Data(input.utf8))
            process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: inPath))
        } else {
            process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        }
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        let stdout = String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self)
        let stderr = String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self)
        return CommandResult(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }
}

/// A fresh directory under the system temporary directory, removed with everything in it when released.
final class TemporaryDirectory {
    let path: String

    init(prefix: String = "credit-e2e") throws {
        var template = Array((NSTemporaryDirectory() + "/\(prefix)-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
        }
        path = try #require(created, "mkdtemp failed")
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }
}

/// A data directory for one test, and a way to run `credit` on it.
final class DataDirectory {
    let temporary: TemporaryDirectory
    let path: String

    init() throws {
        temporary = try TemporaryDirectory()
        path = temporary.path + "/data"
    }

    @discardableResult
    func credit(
        _ arguments: String..., now: String? = "2026-11-29T12:00:00.000Z", input: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CommandResult {
        try Credit.run(arguments, dataDirectory: path, now: now, input: input, sourceLocation: sourceLocation)
    }

    /// Runs `credit` and expects exit 0, returning what it printed.
    @discardableResult
    func ok(
        _ arguments: String..., now: String? = "2026-11-29T12:00:00.000Z", input: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CommandResult {
        let result = try Credit.run(
            arguments, dataDirectory: path, now: now, input: input, sourceLocation: sourceLocation)
        #expect(
            result.status == 0, "credit \(arguments.joined(separator: " ")) failed: \(result)",
            sourceLocation: sourceLocation)
        return result
    }

    var device: String {
        get throws {
            let text = try String(contentsOfFile: path + "/device", encoding: .utf8)
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    var ledgerFile: String { get throws { path + "/ledger/" + (try device) + ".jsonl" } }

    func bytes(_ file: String) throws -> [UInt8] {
        Array(try #require(FileManager.default.contents(atPath: file), "cannot read \(file)"))
    }

    /// The balance, through `credit balance --json`.
    func balance(sourceLocation: SourceLocation = #_sourceLocation) throws -> Int64 {
        let object = try ok("balance", "--json", sourceLocation: sourceLocation).jsonObject()
        return try #require((object["balance"] as? NSNumber)?.int64Value, sourceLocation: sourceLocation)
    }
}

func int64(_ value: Any?) -> Int64? { (value as? NSNumber)?.int64Value }
