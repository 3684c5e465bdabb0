/// How a store's start ended.
enum StoreStart: Sendable {
    case listening(url: String, port: UInt16)
    case exited
}

/// What a ``TestStore`` drives: the `mockstore` process (``StoreChild``) or a store a ``StoreHost`` runs in this
/// process (``HostedRunner``).
protocol StoreRunner: Sendable {
    /// The store's process (this process's, for a store in it).
    var processIdentifier: Int32 { get }
    /// Fires once: listening, or the end before it.
    var started: OneShot<StoreStart> { get }
    /// Fires once, with the exit status (the signal's number when a signal ended it).
    var exited: OneShot<Int32> { get }
    var standardOutput: String { get }
    var standardError: String { get }
    /// Whether the store runs in this process.
    var isInProcess: Bool { get }
    /// Sends `signal` while it runs, without waiting (a store in this process: SIGKILL stops it).
    func send(_ signal: Int32)
    /// Stops the store with `signal` the first time only, without waiting.
    func beginStop(_ signal: Int32)
}

extension StoreChild {
    var isInProcess: Bool { false }
}
