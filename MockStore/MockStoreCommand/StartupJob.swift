import Foundation

/// One piece of a store's start-up run on a thread of its own while the rest goes on (the `--ephemeral` store's
/// new test CA, made while the catalogue is read and the database opened: each takes a few milliseconds, and a
/// fresh store per test waits for all of them). ``result()`` waits for it. `@unchecked Sendable`: the result is
/// written once, before `done` is signalled, and read only after.
final class StartupJob<Value: Sendable>: @unchecked Sendable {
    private var outcome: Result<Value, StartupError>?
    private let done = DispatchSemaphore(value: 0)

    /// Starts `work` at once.
    init(_ name: String, _ work: @escaping @Sendable () throws(StartupError) -> Value) {
        let thread = Thread { [self] in
            outcome = Result { () throws(StartupError) in try work() }
            done.signal()
        }
        thread.name = name
        thread.start()
    }

    /// What the work gave, once it is done.
    func result() throws(StartupError) -> Value {
        waitUntilDone()
        // Set before the signal: never nil here.
        return try outcome!.get()
    }

    /// Waits for the work to end. A start that fails waits too: the process must not exit (and OpenSSL clean
    /// up) under a thread that is still making keys.
    func waitUntilDone() {
        done.wait()
        done.signal()  // a second call does not wait
    }
}
