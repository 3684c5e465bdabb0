import Clocks
import DurableFiles
import Foundation
import MockStoreHTTP
import MockStoreSQLite
import MockStoreServer
import Signing
import StoreKitCatalogue

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
        // --ephemeral: a new CA each start, made on a thread of its own while the catalogue is read and the
        // database made (a fresh store per test). Nothing on disk is touched before the catalogue is known good.
        let now = clock.now()
        let ephemeralAuthority = options.ephemeral ? Self.authorityJob(data: nil, now: now) : nil
        defer { ephemeralAuthority?.waitUntilDone() }
        let (catalogue, cataloguePath) = try loadCatalogue(options)

        // --ephemeral: no directory, no lock, a CA only in memory, an in-memory database.
        let data = options.ephemeral ? nil : DataDirectory(path: options.dataDirectory)
        try data?.create()
        // Released when start-up fails (the lock goes with it), kept by the running store otherwise.
        let lock = try data?.lock()
        // A data directory's CA is read (or made and written, on first start) under the lock, while the rest of the
        // files are read and the database opened.
        let authorityJob = ephemeralAuthority ?? Self.authorityJob(data: data, now: now)
        defer { authorityJob.waitUntilDone() }

        let secret = try options.signing == .hs256 ? readSecret(options.secretFile ?? "") : nil
        var apiKeys: [String: P256PublicKey] = [:]
        for key in options.apiKeys {
            apiKeys[key.keyId] = try loadAPIKey(key)
        }
        let notifyCertificates = try options.notifyCAFile.map(loadNotifyCA)
        let database = try openDatabase(data)
        let authority: TestCertificateAuthority
        do {
            authority = try authorityJob.result()
        } catch {
            try? database.close()
            throw error
        }

        let store = MockStore(
            configuration: configuration(
                options, catalogue: catalogue, authority: authority, secret: secret, apiKeys: apiKeys, clock: clock,
                transactionIDs: transactionIDs),
            database: database)

        let server: HTTPServer
        do {
            server = try HTTPServer(
                host: options.host, port: options.port, limits: options.serverLimits,
                handler: MockStoreRouter(store: store))
        } catch {
            try? store.close()
            throw StartupError("\(error)")
        }
        let dispatcher = options.notifyURL.map {
            NotificationDispatcher(store: store, url: $0, trusting: notifyCertificates)
        }
        // Renewals, expiries, mass extensions (taken before a restart too) and notifications happen when their time
        // comes, whether or not anyone calls the store.
        let timer = StoreTimer(store: store, dispatcher: dispatcher)
        return RunningMockStore(
            server: server, store: store, catalogue: catalogue, cataloguePath: cataloguePath, dataDirectory: data,
            options: options, lock: lock, timer: timer)
    }

    /// The catalogue `--catalogue` names (or the one found the usual way), read, and where it was found.
    static func loadCatalogue(_ options: MockStoreOptions) throws(StartupError) -> (StoreKitConfiguration, String) {
        let cataloguePath = try CatalogueLocator.locate(options.cataloguePath)
        do {
            return (try StoreKitConfiguration.load(contentsOf: cataloguePath), cataloguePath)
        } catch {
            throw StartupError("invalid catalogue: \(error)")
        }
    }

    /// The store's configuration from its options and what start-up read and made.
    static func configuration(
        _ options: MockStoreOptions, catalogue: StoreKitConfiguration, authority: TestCertificateAuthority,
        secret: [UInt8]?, apiKeys: [String: P256PublicKey], clock: any StoreClock,
        transactionIDs: any TransactionIDSource
    ) -> MockStore.Configuration {
        // Servers' copies are always ES256 by the test CA; the device API's too unless --signing says otherwise
        // (one signer then: each one prepared checks its key and encodes its header).
        let serverSigner = JWSTransactionSigner.es256(authority: authority)
        let signer: any TransactionSigner
        switch options.signing {
        case .es256:
            signer = serverSigner
        case .hs256:
            signer = JWSTransactionSigner.hs256(secret: secret ?? [])
        case .none:
            signer = JWSTransactionSigner.unsigned
        }
        return MockStore.Configuration(
            catalogue: catalogue, bundleId: options.bundleId, signer: signer, serverSigner: serverSigner,
            rootCertificateDER: authority.root.derRepresentation, clock: clock, transactionIDs: transactionIDs,
            environment: options.environment, appAppleId: options.appAppleId, bundleVersion: options.bundleVersion,
            notificationURL: options.notifyURL,
            retryPolicy: NotificationRetryPolicy(
                baseMilliseconds: options.notifyRetryBaseMilliseconds, maxAttempts: options.notifyMaxAttempts,
                timeoutMilliseconds: options.notifyTimeoutMilliseconds),
            apiKeys: apiKeys, clockMode: options.clockMode)
    }

    /// Starts reading or making the store's test CA: `data`'s (made and written there on first start), or a new one
    /// in memory only (`--ephemeral`).
    static func authorityJob(data: DataDirectory?, now: Date) -> StartupJob<TestCertificateAuthority> {
        StartupJob("mockstore-test-ca") { () throws(StartupError) in
            guard let data else { return try DataDirectory.makeCertificateAuthority(now: now) }
            return try data.loadOrMakeCertificateAuthority(now: now)
        }
    }

    /// The `--secret-file` of `--signing hs256`: its bytes, never empty.
    static func readSecret(_ path: String) throws(StartupError) -> [UInt8] {
        let secret: [UInt8]
        do {
            secret = try KeyFile.read(path)
        } catch {
            throw StartupError("cannot use the secret file: \(error)")
        }
        guard !secret.isEmpty else { throw StartupError("the secret file \(path) is empty") }
        return secret
    }

    /// The store's database: `data`'s file (WAL), or one in memory only (`--ephemeral`).
    static func openDatabase(_ data: DataDirectory?) throws(StartupError) -> TransactionStore {
        do {
            return try TransactionStore(path: data?.databasePath ?? SQLiteDatabase.inMemoryPath)
        } catch {
            throw StartupError("cannot open the database: \(error)")
        }
    }

    /// The CA certificates of `--notify-ca`.
    static func loadNotifyCA(_ path: String) throws(StartupError) -> HTTPClient.TrustedCertificates {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw StartupError("--notify-ca: cannot read \(path)")
        }
        do {
            return try HTTPClient.TrustedCertificates(pem: Array(data))
        } catch {
            throw StartupError("--notify-ca: \(path) holds no PEM certificate")
        }
    }

    /// The public key of one `--api-key`: a PEM public key, or the public half of a PEM private key.
    static func loadAPIKey(_ key: MockStoreOptions.APIKeyOption) throws(StartupError) -> P256PublicKey {
        guard let data = FileManager.default.contents(atPath: key.path) else {
            throw StartupError("--api-key \(key.keyId): cannot read \(key.path)")
        }
        let text = String(decoding: data, as: UTF8.self)
        if let publicKey = try? P256PublicKey(pemRepresentation: text) {
            return publicKey
        }
        if let privateKey = try? P256PrivateKey(pemRepresentation: text) {
            return privateKey.publicKey
        }
        throw StartupError("--api-key \(key.keyId): \(key.path) holds no P-256 public key (PEM) or private key (PEM)")
    }
}
