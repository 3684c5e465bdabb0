import DurableFiles
import Foundation
import MockStoreHTTP
import MockStoreServer
import StoreKitCatalogue
import StoreTestControls
import Synchronization

/// A started mock store: its HTTP server, its state and where they live.
public final class RunningMockStore: Sendable {
    public let server: HTTPServer
    public let store: MockStore
    public let catalogue: StoreKitConfiguration
    /// Where the catalogue was read from (the default is looked for: ``CatalogueLocator``).
    public let cataloguePath: String
    /// The data directory; nil with `--ephemeral` (everything in memory).
    public let dataDirectory: DataDirectory?
    public let options: MockStoreOptions
    /// The data directory's lock, held until ``stop()`` (none with `--ephemeral`).
    private let lock: Mutex<FileLock?>
    /// Runs renewals, expiries, the ends of grace periods and billing retry, mass extensions and (with a `--notify`
    /// URL) notifications when they fall due.
    public let timer: StoreTimer?

    init(
        server: HTTPServer, store: MockStore, catalogue: StoreKitConfiguration, cataloguePath: String,
        dataDirectory: DataDirectory?, options: MockStoreOptions, lock: sending FileLock?,
        timer: StoreTimer? = nil
    ) {
        self.cataloguePath = cataloguePath
        self.timer = timer
        self.server = server
        self.store = store
        self.catalogue = catalogue
        self.dataDirectory = dataDirectory
        self.options = options
        self.lock = Mutex(lock)
    }

    /// The line printed when the store is ready: `mockstore listening on http://127.0.0.1:PORT`.
    public var listeningLine: String { "mockstore listening on \(server.baseURL)" }

    /// The line printed after ``listeningLine``: where the console is, a page to open in a browser
    /// (`mockstore console: http://127.0.0.1:PORT/console`).
    public var consoleLine: String { "mockstore console: \(server.baseURL)\(TestControls.console.path())" }

    /// Stops the server (waiting for requests in progress), closes the database and releases the data
    /// directory. Stopping twice is harmless.
    public func stop() throws {
        server.stop()
        timer?.stop()
        defer {
            lock.withLock { held in
                held?.unlock()
                held = nil
            }
        }
        try store.close()
    }
}
