/// What ``GroupCommit`` shares between concurrent requests: the owner of one SQLite connection (the mock store's
/// `TransactionStore`), which the requests' work reads and writes.
public protocol GroupCommitStore: AnyObject {
    /// The connection the batches run on.
    var database: SQLiteDatabase { get }
    /// Called after SQLite rolled back a batch: whatever the owner keeps in memory about what was written in it
    /// (caches of settings) may be stale.
    func rolledBack()
    /// Closes the connection; work after this fails.
    func close() throws
}
