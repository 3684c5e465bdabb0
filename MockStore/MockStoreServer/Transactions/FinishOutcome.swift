/// The result of finishing a transaction; finishing is idempotent.
public enum FinishOutcome: Equatable, Sendable {
    /// It was unfinished and is now finished.
    case finished
    /// It had been finished before: nothing changed.
    case alreadyFinished
    /// No paid transaction has this id (pending and declined ones cannot be finished).
    case notFound
}
