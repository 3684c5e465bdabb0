import CreditLedger
import DurableFiles
import Foundation
import Signing

#if canImport(Glibc)
    import Glibc
#endif

/// Which store top-ups go through, kept in the data directory as `store.json`. The simulated store by default.
public struct StoreConfiguration: Codable, Sendable, Equatable {
    /// `simulated` or `mockstore`.
    public var store: String
    /// The mock store's base URL.
    public var url: String?
    /// How its receipts are verified: `es256` (pinned root in `store-root.der`) or `hs256` (secret in `store-secret`).
    public var signing: String?
    /// The app's bundle id, which every transaction must carry.
    public var bundleId: String?
    /// Where the updates feed was read up to.
    public var updatesCursor: String?

    public init(
        store: String, url: String? = nil, signing: String? = nil, bundleId: String? = nil,
        updatesCursor: String? = nil
    ) {
        self.store = store
        self.url = url
        self.signing = signing
        self.bundleId = bundleId
        self.updatesCursor = updatesCursor
    }

    public static let simulated = StoreConfiguration(store: "simulated")
    public static let defaultBundleID = "ai.voicedebrief.app"

    static func path(in directory: String) -> String { directory + "/store.json" }
    static func rootPath(in directory: String) -> String { directory + "/store-root.der" }
    static func secretPath(in directory: String) -> String { directory + "/store-secret" }
    static func rootsPath(in directory: String) -> String { directory + "/store-roots" }

    /// The configuration in `directory`, or the simulated store when there is none.
    public static func load(from directory: String) throws -> StoreConfiguration {
        let path = path(in: directory)
        guard let data = FileManager.default.contents(atPath: path) else { return .simulated }
        do {
            let configuration = try JSONDecoder().decode(StoreConfiguration.self, from: data)
            guard ["simulated", "mockstore"].contains(configuration.store) else {
                throw StoreConfigurationError("\(path): unknown store \"\(configuration.store)\"")
            }
            return configuration
        } catch let error as StoreConfigurationError {
            throw error
        } catch {
            throw StoreConfigurationError("\(path) cannot be read: \(error)")
        }
    }

    /// Writes the configuration into `directory` atomically.
    public func save(to directory: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(self)
        try FileAtomic.write(Array(data) + [0x0A], to: StoreConfiguration.path(in: directory), mode: 0o644)
    }

    /// Switches to the mock store at `url`, pinning its root certificate (DER or PEM bytes) or its shared secret.
    public static func useMockStore(
        url: String, rootCertificate: [UInt8]?, secret: [UInt8]?, bundleID: String?,
        in directory: String
    ) throws -> StoreConfiguration {
        guard let parsed = URL(string: url), let scheme = parsed.scheme, ["http", "https"].contains(scheme),
            parsed.host != nil
        else {
            throw StoreConfigurationError("--url must be an http URL such as http://127.0.0.1:8080, not \"\(url)\"")
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var configuration = StoreConfiguration(store: "mockstore", url: url, bundleId: bundleID ?? defaultBundleID)
        if let rootCertificate {
            let certificate: Certificate
            if let text = String(validating: rootCertificate, as: UTF8.self), text.contains("-----BEGIN") {
                certificate = try Certificate(pemRepresentation: text)
            } else {
                certificate = try Certificate(derRepresentation: rootCertificate)
            }
            try FileAtomic.write(certificate.derRepresentation, to: rootPath(in: directory), mode: 0o644)
            // Every root ever pinned is kept, so receipts from an earlier store still verify.
            try FileManager.default.createDirectory(atPath: rootsPath(in: directory), withIntermediateDirectories: true)
            try FileAtomic.write(
                certificate.derRepresentation,
                to: rootsPath(in: directory) + "/" + Hex.encode(SHA256.hash(certificate.derRepresentation)) + ".der",
                mode: 0o644)
            configuration.signing = "es256"
        } else if let secret {
            guard !secret.isEmpty else { throw StoreConfigurationError("the secret file is empty") }
            try KeyFile.write(secret, to: secretPath(in: directory))
            configuration.signing = "hs256"
        } else {
            throw StoreConfigurationError(
                "say how to verify the store's receipts: --root-certificate FILE or --secret-file FILE")
        }
        try configuration.save(to: directory)
        return configuration
    }

    /// The provider this configuration names.
    public func provider() throws -> any StoreProvider {
        switch store {
        case "mockstore":
            guard let url, let parsed = URL(string: url) else {
                throw StoreConfigurationError("the mock store has no URL")
            }
            return MockStoreClient(baseURL: parsed)
        default:
            return SimulatedStore()
        }
    }

    /// The verifier for this store's receipts (nil for the simulated store, which has none).
    public func verifier(in directory: String) throws -> (any TransactionVerifier)? {
        guard store == "mockstore" else { return nil }
        let bundle = bundleId ?? StoreConfiguration.defaultBundleID
        switch signing {
        case "es256":
            guard let der = FileManager.default.contents(atPath: StoreConfiguration.rootPath(in: directory)) else {
                throw StoreConfigurationError(
                    "the pinned root certificate \(StoreConfiguration.rootPath(in: directory)) is missing")
            }
            return ReceiptVerifier(
                method: .es256(root: try Certificate(derRepresentation: Array(der))), bundleID: bundle)
        case "hs256":
            let secret = try KeyFile.read(StoreConfiguration.secretPath(in: directory))
            return ReceiptVerifier(method: .hs256(secret: secret), bundleID: bundle)
        default:
            throw StoreConfigurationError("unknown receipt signing \"\(signing ?? "")\" in store.json")
        }
    }

    /// The verifier for receipts in this data directory, whatever store is configured now (for `credit verify`):
    /// every root and secret ever pinned here, so older receipts still check.
    public static func receiptVerifier(in directory: String) throws -> ReceiptVerifier? {
        let configuration = try load(from: directory)
        let bundle = configuration.bundleId ?? defaultBundleID
        var methods: [ReceiptVerifier.Method] = []
        if let der = FileManager.default.contents(atPath: rootPath(in: directory)) {
            methods.append(.es256(root: try Certificate(derRepresentation: Array(der))))
        }
        let pinned = (try? FileManager.default.contentsOfDirectory(atPath: rootsPath(in: directory))) ?? []
        for name in pinned.sorted() where name.hasSuffix(".der") {
            if let der = FileManager.default.contents(atPath: rootsPath(in: directory) + "/" + name) {
                methods.append(.es256(root: try Certificate(derRepresentation: Array(der))))
            }
        }
        if FileManager.default.fileExists(atPath: secretPath(in: directory)) {
            methods.append(.hs256(secret: try KeyFile.read(secretPath(in: directory))))
        }
        return methods.isEmpty ? nil : ReceiptVerifier(methods: methods, bundleID: bundle)
    }
}

/// A store configuration that cannot be used, explained.
public struct StoreConfigurationError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Atomic replacement of small files through the one file-system seam (``DurableFiles``): an exclusively created
/// temporary with an unpredictable name, fsync, rename, directory fsync.
enum FileAtomic {
    static func write(_ bytes: [UInt8], to path: String, mode: Int) throws {
        do {
            try Files.replaceAtomically(path, with: bytes, mode: mode_t(mode))
        } catch let error as FileError {
            throw StoreConfigurationError(error.description)
        }
    }
}
