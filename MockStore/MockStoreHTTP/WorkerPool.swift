import Foundation

/// Threads that run the handler's work, so that a request that waits (for a commit, say) never holds up
/// libmicrohttpd's polling threads, which serve every other connection.
///
/// Threads are started as work arrives, up to ``maximumThreads``, and then kept. ``begin()`` and ``end()`` count
/// the work in progress so that ``drain()`` can wait for all of it: libmicrohttpd must not be stopped while a
/// connection is still suspended for its handler. `@unchecked Sendable`: every field is used under `condition`.
final class WorkerPool: @unchecked Sendable {
    /// The most threads run at once.
    let maximumThreads: Int
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var jobsStart = 0
    private var threads = 0
    private var idleThreads = 0
    private var inProgress = 0
    private var isDraining = false
    private var isStopped = false

    init(maximumThreads: Int) {
        self.maximumThreads = max(1, maximumThreads)
    }

    /// Counts one piece of work in; false once ``drain()`` has begun (the caller answers without the pool).
    func begin() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !isDraining else { return false }
        inProgress += 1
        return true
    }

    /// Counts one piece of work out (after ``begin()`` returned true).
    func end() {
        condition.lock()
        inProgress -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Runs `job` on one of the pool's threads, starting a thread when none is free and the maximum allows.
    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        // Each idle thread takes one job; more waiting jobs than idle threads need a new thread.
        let startThread = jobs.count - jobsStart > idleThreads && threads < maximumThreads
        if startThread { threads += 1 }
        condition.signal()
        condition.unlock()
        if startThread {
            let thread = Thread { [self] in work() }
            thread.name = "mockstore-http-worker"
            thread.start()
        }
    }

    /// Refuses new work and waits until the work in progress has ended; then lets the threads finish.
    func drain() {
        condition.lock()
        isDraining = true
        while inProgress > 0 { condition.wait() }
        isStopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        condition.lock()
        while true {
            if jobsStart < jobs.count {
                let job = jobs[jobsStart]
                jobsStart += 1
                if jobsStart == jobs.count {
                    jobs.removeAll(keepingCapacity: true)
                    jobsStart = 0
                }
                condition.unlock()
                job()
                condition.lock()
                continue
            }
            if isStopped { break }
            idleThreads += 1
            condition.wait()
            idleThreads -= 1
        }
        threads -= 1
        condition.unlock()
    }
}
