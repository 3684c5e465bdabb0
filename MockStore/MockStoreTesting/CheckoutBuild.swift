import Foundation
import Platform
import Synchronization

/// Builds `mockstore` in the checkout `MockStoreTesting` came from (`swift build --product mockstore` there), once
/// for the test process: every store started while it builds waits for the one build, and a build that failed is
/// not tried again (its words are given to every start).
enum CheckoutBuild {
    private static let outcome = Mutex<Result<String, TestStoreError>?>(nil)

    /// The built binary, building it first if no build of this process has; the caller's thread waits for the build
    /// (the first time, minutes).
    static func mockstore(in root: String) throws(TestStoreError) -> String {
        let result = outcome.withLock { outcome in
            if let outcome { return outcome }
            let built = build(in: root)
            outcome = built
            return built
        }
        return try result.get()
    }

    /// The command a person runs to build it.
    static func command(in root: String) -> String {
        "cd \(root) && swift build --product mockstore"
    }

    private static func build(in root: String) -> Result<String, TestStoreError> {
        guard let swift = swiftExecutable() else {
            return .failure(.binaryNotBuilt(command: command(in: root), why: "there is no `swift` on PATH"))
        }
        let log = NSTemporaryDirectory() + "/mockstore-build-\(UUID().uuidString).log"
        defer { try? FileManager.default.removeItem(atPath: log) }
        FileHandle.standardError.write(
            Data(
                "TestStore: no mockstore is built; building it in \(root) (swift build --product mockstore), once\n"
                    .utf8))
        let status = run(swift, ["build", "--package-path", root, "--product", "mockstore"], log: log)
        let output = String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self)
        let binary = root + "/.build/debug/mockstore"
        guard status == 0, FileManager.default.isExecutableFile(atPath: binary) else {
            let last = output.split(separator: "\n").suffix(15).joined(separator: "\n")
            return .failure(.binaryNotBuilt(command: command(in: root), why: "the build failed:\n" + last))
        }
        return .success(binary)
    }

    /// Runs `executable` with `arguments`, its output to `log`, and gives its exit status (-1 when it could not be
    /// started).
    private static func run(_ executable: String, _ arguments: [String], log: String) -> Int32 {
        let descriptor = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return -1 }
        defer { close(descriptor) }
        var environment = ProcessInfo.processInfo.environment
        environment["MOCKSTORE_BINARY"] = nil
        guard
            let child = try? StoreChild.spawn(
                executable, arguments, environment: environment, stdout: descriptor, stderr: log + ".stderr",
                workingDirectory: nil)
        else { return -1 }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        if let errors = FileManager.default.contents(atPath: log + ".stderr") {
            _ = errors.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            try? FileManager.default.removeItem(atPath: log + ".stderr")
        }
        return status & 0x7f == 0 ? (status >> 8) & 0xff : -1
    }

    /// `swift` on `PATH`, else the toolchain's usual places.
    private static func swiftExecutable() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/opt/swift/usr/bin", "/usr/bin"]
        return folders.map { $0 + "/swift" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
