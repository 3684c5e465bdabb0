import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one run of a process did: how it ended and everything it printed.
public struct ProcessResult: CustomStringConvertible, Sendable {
    /// The exit status, or the signal number when ``signaled``.
    public var status: Int32
    /// Killed by a signal (the status is then the signal number).
    public var signaled: Bool
    public var stdout: String
    public var stderr: String
    /// Killed (SIGKILL) because it ran past its timeout.
    public var timedOut = false
    /// The most memory it held at once (its peak resident set, from wait4(2)), when known.
    public var peakResidentBytes: Int?
    /// When it exited, as the thread waiting for it saw (not when a busy test resumed), for an async wait.
    public var exitedAt: Date?

    public init(status: Int32, signaled: Bool, stdout: String, stderr: String, timedOut: Bool = false) {
        self.status = status
        self.signaled = signaled
        self.stdout = stdout
        self.stderr = stderr
        self.timedOut = timedOut
    }

    public var killedBySIGKILL: Bool { signaled && status == SIGKILL }
    public var succeeded: Bool { !signaled && status == 0 }

    public var description: String {
        "\(signaled ? "signal \(status)" : "exit \(status)")\(timedOut ? " (timed out)" : "")\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
    }

    /// Standard output as a JSON object, or nil when it is not one.
    public func jsonObject() -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]
    }

    /// Standard output as a JSON array of objects, or nil when it is not one.
    public func jsonArray() -> [[String: Any]]? {
        (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [[String: Any]]
    }
}
