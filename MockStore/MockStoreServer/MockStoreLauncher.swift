import Foundation
import Signing

/// Builds a running mock store from its options: the catalogue, the data directory, the signer, the database
/// and the HTTP server. Used by the `mockstore` executable and by tests that run the store in-process.
public enum MockStoreLauncher {
    /// Starts a store. `clock` and `transactionIDs` are injectable for tests.
    ///
    /// - Throws: ``StartupError`` saying what failed (a missing or invalid catalogue, an unusable data
    ///   directory or secret file, a port that cannot be bound).
    public static func start(
        _ options: MockStoreOptions, clock: any StoreClock = SystemClock(),
        transactionIDs: any TransactionIDSource = SandboxTransactionIDs()
    ) throws(StartupError) -> RunningMockStore {
        let catalogue: StoreKitConfiguration
        do {
            catalogue = try StoreKitConfiguration.load(contentsOf: options.cataloguePath)
        } catch {
            throw StartupError("invalid catalogue: \(error)")
        }

        let data = DataDirectory(path: options.dataDirectory)
        try data.create()
        let lock = try data.lock()
        var keepLock = false
        defer {
            if !keepLock { close(lock) }
        }

        let signer: any TransactionSigner
        let authority = try data.loadOrMakeCertificateAuthority(now: clock.now())
        switch options.signing {
        case .es256:
            signer = JWSTransactionSigner.es256(authority: authority)
        case .hs256:
            let path = options.secretFile ?? ""
            let secret: [UInt8]
            do {
                secret = try KeyFile.read(path)
            } catch {
                throw StartupError("cannot use the secret file: \(error)")
            }
            guard !secret.isEmpty else { throw StartupError("the secret file \(path) is empty") }
            signer = JWSTransactionSigner.hs256(secret: secret)
        case .none:
            signer = JWSTransactionSigner.unsigned
        }

        let database: TransactionStore
        do {
            database = try TransactionStore(path: data.databasePath)
        } catch {
            throw StartupError("cannot open the database: \(error)")
        }
        let store = MockStore(
            configuration: MockStore.Configuration(
                catalogue: catalogue, bundleId: options.bundleId, signer: signer,
                rootCertificateDER: authority.root.derRepresentation, clock: clock, transactionIDs: transactionIDs),
            database: database)

        let server: HTTPServer
        do {
            server = try HTTPServer(host: options.host, port: options.port, handler: MockStoreRouter(store: store))
        } catch {
            try? store.close()
            throw StartupError("\(error)")
        }
        keepLock = true
        return RunningMockStore(
            server: server, store: store, catalogue: catalogue, dataDirectory: data, options: options,
            lockDescriptor: lock)
    }
}
