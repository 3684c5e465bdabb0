import Foundation
import Testing

@testable import MockStoreHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real `mockstore --ephemeral` (or any other arguments), started in `workingDirectory` through `/bin/sh` (so
/// the default catalogue is found from outside the repository), once it has said where it listens. Stopped by
/// ``stop()``, or with SIGKILL when released.
final class EphemeralMockStore {
    let child: ChildProcess
    let url: String
    let port: UInt16
    /// Seconds from the start of the process to its listening line (as the test saw it, polling every 10 ms).
    let secondsToListening: Double
    private var stopped = false

    /// The environment the store runs with: this one, without the variables that would choose its data or
    /// catalogue for it.
    static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["MOCKSTORE_DATA"] = nil
        environment["MOCKSTORE_CATALOGUE"] = nil
        return environment
    }

    init(
        _ arguments: [String] = ["--ephemeral"], workingDirectory: String,
        environment: [String: String] = EphemeralMockStore.environment
    ) throws {
        let binary = try Binaries.require("mockstore")
        let started = Date()
        let child = try ChildProcess(
            "/bin/sh",
            [
                "-c", #"cd "$1" && shift && exec "$@""#, "sh", workingDirectory, binary, "--port", "0",
                "--exit-with-parent",
            ]
                + arguments,
            environment: environment)
        var found: (url: String, port: UInt16)?
        waitUntil(timeout: 30, pollEvery: 0.01) {
            found = LaunchedMockStore.listeningAddress(in: child.stdoutSoFar)
            return found != nil || child.hasExited
        }
        guard let found else {
            child.send(SIGKILL)
            throw SupportFailure("mockstore did not start: \(child.wait(timeout: 5))")
        }
        secondsToListening = Date().timeIntervalSince(started)
        self.child = child
        url = found.url
        port = found.port
    }

    deinit {
        if !stopped {
            child.send(SIGKILL)
            child.wait(timeout: 5)
        }
    }

    /// SIGTERM, then its exit status (SIGKILL after 20 s).
    @discardableResult
    func stop() -> ProcessResult {
        stopped = true
        child.send(SIGTERM)
        return child.wait(timeout: 20)
    }

    /// One request on a new connection (closed by the server after the answer).
    func request(_ method: String, _ path: String, json: String? = nil, timeout: Double = 10) throws -> RawHTTP.Reply {
        let bytes = try RawHTTP.exchange(
            RawHTTP.request(method, path, body: json.map { Array($0.utf8) }), port: port, timeout: timeout,
            halfClose: true)
        guard let reply = RawHTTP.parse(bytes) else {
            throw SupportFailure(
                "no HTTP reply to \(method) \(path): \(String(decoding: bytes.prefix(200), as: UTF8.self))")
        }
        return reply
    }

    /// A purchase of the 500-credit pack: its status.
    func purchase(timeout: Double = 10) throws -> Int {
        try request(
            "POST", "/storekit/v1/purchases", json: #"{"productId":"ai.voicedebrief.app.credit.500"}"#, timeout: timeout
        )
        .status
    }
}

/// Raises this process's soft limit on open files to the hard one (the load tests hold more than 1,024 sockets):
/// the store's own ``FileDescriptorLimit``; returns the limit now in force.
func raiseOpenFileLimit() -> Int { FileDescriptorLimit.raise(toAtLeast: 1 << 20) }
