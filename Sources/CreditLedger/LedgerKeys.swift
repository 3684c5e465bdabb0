import DurableFiles
import Signing

/// The ledger owner's keys, kept beside the ledger in `keys/` with mode 0600: the HMAC key that chains entries
/// (one key for all the user's devices, as a vault key would be) and the P-256 key that signs each device's head, so
/// another device can check a head with the public key alone.
public struct LedgerKeys {
    /// The HMAC-SHA256 key.
    public let macKey: [UInt8]
    /// Signs heads.
    public let headKey: P256PrivateKey

    public static func directory(in dataDirectory: String) -> String { dataDirectory + "/keys" }
    public static func macKeyPath(in dataDirectory: String) -> String { directory(in: dataDirectory) + "/ledger.key" }
    public static func headKeyPath(in dataDirectory: String) -> String {
        directory(in: dataDirectory) + "/head-signing.pem"
    }
    public static func headPublicKeyPath(in dataDirectory: String) -> String {
        directory(in: dataDirectory) + "/head-public.pem"
    }

    /// Loads the keys of `dataDirectory`, making them on first use, every write through `fileSystem` (the seam the
    /// ledger's own writes go through, so a fault can be injected there too).
    public static func loadOrCreate(
        in dataDirectory: String, fileSystem: any FileSystem = SystemFileSystem()
    ) throws -> LedgerKeys {
        let macPath = macKeyPath(in: dataDirectory)
        let headPath = headKeyPath(in: dataDirectory)
        try fileSystem.makeDirectories(directory(in: dataDirectory))
        try DataDirectory.check(directory(in: dataDirectory))
        removeLeftoverTemporaries(in: dataDirectory)
        if !Files.exists(macPath) || !Files.exists(headPath) {
            // Two processes opening a new data directory at once must not both make keys: the second rename would
            // replace the first's key after the first had signed with it. Made under a lock, checked again inside.
            let lock = try FileLock(path: directory(in: dataDirectory) + "/.lock")
            defer { lock.unlock() }
            if !Files.exists(macPath) {
                try fileSystem.replaceAtomically(macPath, with: SecureRandom.bytes(32), mode: 0o600)
            }
            if !Files.exists(headPath) {
                let key = try P256PrivateKey.generate()
                try fileSystem.replaceAtomically(headPath, with: Array(key.pemRepresentation.utf8), mode: 0o600)
                try fileSystem.replaceAtomically(
                    headPublicKeyPath(in: dataDirectory), with: Array(key.publicKey.pemRepresentation.utf8),
                    mode: 0o600)
            }
        }
        return try load(from: dataDirectory)
    }

    /// Removes what a process killed while making keys left in `keys/` (temporary files only, regular files only),
    /// under the keys' lock, which every writer of `keys/` holds: none of them is in use.
    private static func removeLeftoverTemporaries(in dataDirectory: String) {
        let keys = directory(in: dataDirectory)
        guard let names = try? Files.list(keys), names.contains(where: DataDirectory.isTemporaryName),
            let lock = try? FileLock(path: keys + "/.lock")
        else { return }
        defer { lock.unlock() }
        DataDirectory.removeTemporaries(in: keys) { _, _ in true }
    }

    /// Loads existing keys; throws if they are missing or readable by others.
    public static func load(from dataDirectory: String) throws -> LedgerKeys {
        let macKey = try KeyFile.read(macKeyPath(in: dataDirectory))
        guard macKey.count >= 16 else {
            throw LedgerError.invalid("\(macKeyPath(in: dataDirectory)) is too short to be a ledger key")
        }
        let pem = try KeyFile.read(headKeyPath(in: dataDirectory))
        let headKey = try P256PrivateKey(pemRepresentation: String(decoding: pem, as: UTF8.self))
        return LedgerKeys(macKey: macKey, headKey: headKey)
    }

    /// An authenticator for entries, with its own reused HMAC context.
    public func makeAuthenticator() throws -> HMACAuthenticator { try HMACAuthenticator(key: macKey) }
}

/// HMAC-SHA256 entry MACs on a reused OpenSSL context.
public final class HMACAuthenticator: EntryAuthenticator {
    private let hmac: HMACSHA256

    public init(key: [UInt8]) throws { hmac = try HMACSHA256(key: key) }

    public func authenticationCode(for bytes: [UInt8]) -> [UInt8] { hmac.authenticationCode(for: bytes) }

    public func authenticationCode(for bytes: UnsafeRawBufferPointer) -> [UInt8] { hmac.authenticationCode(for: bytes) }
}
