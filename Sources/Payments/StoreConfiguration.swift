import DurableFiles
import Foundation
import Platform
import Signing
import StoreWire

/// Which store top-ups go through, kept in the data directory as `store.json`. The simulated store by default.
///
/// It knows no app: the app's bundle id (when `bundleId` names none) and the pack its simulated store sells are
/// given by the caller.
public struct StoreConfiguration: Codable, Sendable, Equatable {
    public var store: StoreKind
    /// The mock store's base URL.
    public var url: String?
    /// How its receipts are verified.
    public var signing: ReceiptSigning?
    /// The app's bundle id, which every transaction must carry.
    public var bundleId: String?
    /// Where the updates feed was read up to.
    public var updatesCursor: String?
    /// The one environment its receipts must come from; none (every configuration written before this existed)
    /// means the store's own default, Sandbox for the mock store. See ``receiptEnvironment``.
    public var environment: AppStoreEnvironment?

    public init(
        store: StoreKind, url: String? = nil, signing: ReceiptSigning? = nil, bundleId: String? = nil,
        updatesCursor: String? = nil, environment: AppStoreEnvironment? = nil
    ) {
        self.store = store
        self.url = url
        self.signing = signing
        self.bundleId = bundleId
        self.updatesCursor = updatesCursor
        self.environment = environment
    }

    public static let simulated = StoreConfiguration(store: .simulated)

    /// The environment receipts must come from: the one configured, else the store's default
    /// (``StoreKind/defaultReceiptEnvironment``).
    public var receiptEnvironment: AppStoreEnvironment { environment ?? store.defaultReceiptEnvironment }

    /// The bundle id every transaction must carry: the one configured, else `defaultBundleID` (the app's).
    public func bundleID(default defaultBundleID: String) -> String { bundleId ?? defaultBundleID }

    static func path(in directory: String) -> String { directory + "/store.json" }
    static func rootPath(in directory: String) -> String { directory + "/store-root.der" }
    static func secretPath(in directory: String) -> String { directory + "/store-secret" }
    static func rootsPath(in directory: String) -> String { directory + "/store-roots" }

    /// The files (and the directory) of a data directory that hold the store configuration and its pinned roots,
    /// by their path inside it: what a new device of the account takes with the ledger.
    public static let fileNames = ["store.json", "store-root.der", "store-secret", "store-roots"]

    /// The regular file at `path` as a data-directory file is read (never through a link), or nil when there is
    /// none.
    static func readIfPresent(_ path: String) throws(StoreConfigurationError) -> [UInt8]? {
        do {
            return try Files.readAll(path)
        } catch let error as FileError where error.errno == ENOENT && error.found == nil {
            return nil
        } catch {
            throw .unreadable(path: path, detail: String(describing: error))
        }
    }

    /// The configuration in `directory`, or the simulated store when there is none.
    public static func load(from directory: String) throws(StoreConfigurationError) -> StoreConfiguration {
        let path = path(in: directory)
        guard let bytes = try readIfPresent(path) else { return .simulated }
        let configuration: StoreConfiguration
        do {
            configuration = try JSONDecoder().decode(StoreConfiguration.self, from: Data(bytes))
        } catch {
            throw .unreadable(path: path, detail: DecodingWords.describe(error))
        }
        if case .unrecognized(let store) = configuration.store { throw .unknownStore(path: path, store: store) }
        return configuration
    }

    /// Writes the configuration (the updates cursor with it) into `directory` atomically, through `fileSystem` (the
    /// ledger's, so a fault a test puts under the ledger reaches this write too).
    public func save(to directory: String, fileSystem: any FileSystem = SystemFileSystem()) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(self)
        let files = FileAtomic(fileSystem)
        try files.makeDirectories(directory)
        try files.write(Array(data) + [0x0A], to: StoreConfiguration.path(in: directory), mode: 0o644)
    }

    /// Switches to the mock store at `url` for the app `bundleID`, pinning its root certificate (DER or PEM bytes)
    /// or its shared secret; its receipts must come from `environment` (Sandbox unless another is named, as a
    /// mock store started with `--environment production` signs Production).
    public static func useMockStore(
        url: String, rootCertificate: [UInt8]?, secret: [UInt8]?, bundleID: String,
        environment: AppStoreEnvironment = .sandbox, in directory: String,
        fileSystem: any FileSystem = SystemFileSystem()
    ) throws -> StoreConfiguration {
        guard environment == .sandbox || environment == .production else {
            throw StoreConfigurationError.unsupportedEnvironment(environment.rawValue)
        }
        guard let parsed = URL(string: url), let scheme = parsed.scheme, ["http", "https"].contains(scheme),
            parsed.host != nil
        else {
            throw StoreConfigurationError.invalidURL(url)
        }
        try FileAtomic(fileSystem).makeDirectories(directory)
        var configuration = StoreConfiguration(
            store: .mockstore, url: url, bundleId: bundleID, environment: environment)
        if let rootCertificate {
            try pin(try certificate(rootCertificate), in: directory, fileSystem)
            configuration.signing = .es256
        } else if let secret {
            guard !secret.isEmpty else { throw StoreConfigurationError.emptySecret }
            try KeyFile.write(secret, to: secretPath(in: directory), fileSystem: fileSystem)
            configuration.signing = .hs256
        } else {
            throw StoreConfigurationError.noReceiptVerification
        }
        try configuration.save(to: directory, fileSystem: fileSystem)
        return configuration
    }

    /// The certificate in `bytes`, DER or PEM.
    private static func certificate(_ bytes: [UInt8]) throws(StoreConfigurationError) -> Certificate {
        do {
            if let text = String(validating: bytes, as: UTF8.self), text.contains("-----BEGIN") {
                return try Certificate(pemRepresentation: text)
            }
            return try Certificate(derRepresentation: bytes)
        } catch {
            throw .unreadableCertificate(ReceiptError.words(error))
        }
    }

    /// Pins `certificate` as the store's root. Every root ever pinned is kept, so receipts from an earlier store
    /// still verify.
    private static func pin(_ certificate: Certificate, in directory: String, _ fileSystem: any FileSystem) throws {
        let files = FileAtomic(fileSystem)
        try files.write(certificate.derRepresentation, to: rootPath(in: directory), mode: 0o644)
        try files.makeDirectories(rootsPath(in: directory))
        try files.write(
            certificate.derRepresentation,
            to: rootsPath(in: directory) + "/" + Hex.encode(SHA256.hash(certificate.derRepresentation)) + ".der",
            mode: 0o644)
    }

    /// How long a store over the network may take to answer one request, whole, when nothing says otherwise: 10
    /// seconds.
    public static let defaultRequestTimeout: TimeInterval = 10

    /// The DER of the root certificate pinned in `directory`, or nil when none is (a store verified by a secret).
    public static func pinnedRootCertificate(in directory: String) throws -> [UInt8]? {
        try readIfPresent(rootPath(in: directory))
    }

    /// The verifier for this store's receipts (nil for the simulated store, which has none), for the app
    /// `defaultBundleID` unless the configuration names another.
    public func verifier(in directory: String, defaultBundleID: String) throws(StoreConfigurationError)
        -> (any TransactionVerifier)?
    {
        guard store == .mockstore else { return nil }
        let bundle = bundleID(default: defaultBundleID)
        switch signing {
        case .es256:
            let path = StoreConfiguration.rootPath(in: directory)
            guard let der = try StoreConfiguration.readIfPresent(path) else { throw .missingRoot(path: path) }
            return ReceiptVerifier(
                method: .es256(root: try StoreConfiguration.pinnedRoot(Array(der))), bundleID: bundle,
                environment: receiptEnvironment)
        case .hs256:
            return ReceiptVerifier(
                method: .hs256(secret: try StoreConfiguration.secret(in: directory)), bundleID: bundle,
                environment: receiptEnvironment)
        case .unrecognized, nil:
            throw .unknownSigning(signing?.rawValue ?? "")
        }
    }

    /// The verifier for receipts in this data directory, whatever store is configured now (for `credit verify`):
    /// every root and secret ever pinned here, so older receipts still check.
    public static func receiptVerifier(in directory: String, defaultBundleID: String) throws(StoreConfigurationError)
        -> ReceiptVerifier?
    {
        let configuration = try load(from: directory)
        var methods: [ReceiptVerifier.Method] = []
        if let der = try readIfPresent(rootPath(in: directory)) {
            methods.append(.es256(root: try pinnedRoot(der)))
        }
        let pinned = (try? Files.list(rootsPath(in: directory))) ?? []
        for name in pinned where name.hasSuffix(".der") {
            if let der = try readIfPresent(rootsPath(in: directory) + "/" + name) {
                methods.append(.es256(root: try pinnedRoot(der)))
            }
        }
        if case .some(.some) = try? Files.entryStatus(secretPath(in: directory)) {
            methods.append(.hs256(secret: try secret(in: directory)))
        }
        guard !methods.isEmpty else { return nil }
        return ReceiptVerifier(
            methods: methods, bundleID: configuration.bundleID(default: defaultBundleID),
            environment: configuration.receiptEnvironment)
    }

    private static func pinnedRoot(_ der: [UInt8]) throws(StoreConfigurationError) -> Certificate {
        do {
            return try Certificate(derRepresentation: der)
        } catch {
            throw .unreadableCertificate(ReceiptError.words(error))
        }
    }

    private static func secret(in directory: String) throws(StoreConfigurationError) -> [UInt8] {
        do {
            return try KeyFile.read(secretPath(in: directory))
        } catch {
            throw .unreadableSecret(ReceiptError.words(error))
        }
    }
}

/// Atomic replacement of small files through the one file-system seam (``DurableFiles``), the one given: an
/// exclusively created temporary with an unpredictable name, fsync, rename, directory fsync.
struct FileAtomic {
    let fileSystem: any FileSystem

    init(_ fileSystem: any FileSystem) { self.fileSystem = fileSystem }

    func write(_ bytes: [UInt8], to path: String, mode: Int) throws {
        do {
            try fileSystem.replaceAtomically(path, with: bytes, mode: mode_t(mode))
        } catch let error as FileError {
            throw StoreConfigurationError(error.description)
        }
    }

    /// Makes `path` and its parents through the seam: mode 0700 whatever the umask, no link followed, durable.
    func makeDirectories(_ path: String) throws {
        do {
            try fileSystem.makeDirectories(path)
        } catch let error as FileError {
            throw StoreConfigurationError(error.description)
        }
    }
}
