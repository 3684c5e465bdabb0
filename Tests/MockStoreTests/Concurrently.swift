import Foundation

/// Runs work on several threads at once, for tests of what concurrent requests do.
enum Concurrently {
    /// Runs `body(0)` … `body(count - 1)`, each on a thread of its own, and returns when all have finished.
    static func run(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let finished = DispatchGroup()
        for index in 0..<count {
            finished.enter()
            let thread = Thread {
                body(index)
                finished.leave()
            }
            thread.start()
        }
        finished.wait()
    }
}
