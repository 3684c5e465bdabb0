import Dispatch

/// Runs a task's jobs on a serial dispatch queue of its own (a thread Dispatch adds when the pool's are busy), not on
/// the cooperative pool: work that blocks in the kernel (a command's `fdatasync`, a `flock`) then holds no thread the
/// rest of the suite needs to resume on.
public final class OwnThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let queue: DispatchQueue

    public init(label: String = "own-thread") {
        queue = DispatchQueue(label: label)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Runs `body` with its jobs on a queue of their own.
    public static func run<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
        try await withTaskExecutorPreference(OwnThreadExecutor()) { try await body() }
    }
}
