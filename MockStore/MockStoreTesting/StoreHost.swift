import Foundation

/// Where a ``TestStore`` runs: nil in ``TestStore/Options/host`` is the `mockstore` binary, a child process of the
/// test's; a host runs the store some other way, such as in the test's own process (`MockStoreInProcess`'s
/// `StoreHost.inProcess`: no binary to build or find, no process to start).
public struct StoreHost: Sendable {
    /// Starts a store from `mockstore`'s command line (without the program name) and the environment it would have
    /// had, and gives it once it listens; throws, with the words the binary would have printed, when it cannot start.
    public typealias Start = @Sendable (_ arguments: [String], _ environment: [String: String]) throws -> HostedStore

    let start: Start

    /// A host that starts stores with `start`.
    public init(start: @escaping Start) {
        self.start = start
    }
}

/// A store a ``StoreHost`` started in this process, listening.
public final class HostedStore: Sendable {
    /// How a store in this process was stopped: its exit status, as the binary's would have been, and the words it
    /// would have written to standard error.
    public typealias Stop = @Sendable (_ signal: Int32) -> (status: Int32, words: String)

    let url: String
    let port: UInt16
    let listeningWords: String
    let startupWords: String
    let stop: Stop

    /// A store listening on `url` (`http://127.0.0.1:PORT`), which wrote `listeningWords` to standard output and
    /// `startupWords` to standard error as it started, and stops (once) by `stop`.
    public init(url: String, port: UInt16, listeningWords: String, startupWords: String, stop: @escaping Stop) {
        self.url = url
        self.port = port
        self.listeningWords = listeningWords
        self.startupWords = startupWords
        self.stop = stop
    }
}
