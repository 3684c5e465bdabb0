import MockStoreInProcess
import MockStoreTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a test's mock store runs: in the test's own process unless the test is about the `mockstore` binary (its
/// exit status on a signal, a kill, its process, `--exit-with-parent`, its lock against another process). A process
/// per test's store was most of what the unit suite started (issue 34).
public enum StoreRun: Sendable {
    /// The store's code in the test's process (`StoreHost.inProcess`).
    case inProcess
    /// The built `mockstore` binary, a child process.
    case binary
}

extension TestStore.Options {
    /// These options for a store run as `run` says.
    public mutating func run(_ run: StoreRun) throws {
        switch run {
        case .inProcess:
            host = .inProcess
            binary = nil
        case .binary:
            host = nil
            binary = try Binaries.require("mockstore")
        }
    }
}

extension TestStore {
    /// Records an issue, and gives false, when `signal` is one a store in this process cannot take (any but SIGTERM
    /// and SIGINT, which stop it cleanly): the test is about the binary and must start it (``StoreRun/binary``).
    public func canTake(_ signal: Int32, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard isInProcess, signal != SIGTERM, signal != SIGINT else { return true }
        Issue.record(
            "a store in the test's process cannot take signal \(signal): start it with StoreRun.binary",
            sourceLocation: sourceLocation)
        return false
    }
}
