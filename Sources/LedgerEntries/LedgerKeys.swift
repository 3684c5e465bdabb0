import DurableFiles
import Platform
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
    public static func macKeyPath(in dataDirectory: String) -> String {
        directory(in: dataDirectory) + "/" + macKeyName
    }
    public static func headKeyPath(in dataDirectory: String) -> String {
        directory(in: dataDirectory) + "/" + headKeyName
    }
    public static func headPublicKeyPath(in dataDirectory: String) -> String {
        directory(in: dataDirectory) + "/" + headPublicKeyName
    }

    /// The largest key file read.
    static let maximumKeyFileBytes = 16 * 1024

    /// The names of the key files in `keys/`.
    package static let macKeyName = "ledger.key"
    package static let headKeyName = "head-signing.pem"
    package static let headPublicKeyName = "head-public.pem"

    /// Loads the keys of `dataDirectory`, making them on first use, every write through `fileSystem` (the seam the
    /// ledger's own writes go through, so a fault can be injected there too). The data directory (made when missing)
    /// is opened once, never through a link, and the keys made and read through it, as
    /// the overload taking the held data directory does.
    public static func loadOrCreate(
        in dataDirectory: String, fileSystem: any FileSystem = SystemFileSystem()
    ) throws -> LedgerKeys {
        try LedgerDirectory.check(dataDirectory)
        return try loadOrCreate(
            in: HeldDataDirectory.making(dataDirectory, fileSystem: fileSystem), fileSystem: fileSystem)
    }

    /// Loads the keys of the data directory held open, making them on first use: `keys/` is made and opened through
    /// the data directory's descriptor (never through a link), and the keys made, renamed and read through its own,
    /// so a directory swapped for a link while they are made receives nothing.
    static func loadOrCreate(in held: HeldDataDirectory, fileSystem: any FileSystem) throws -> LedgerKeys {
        let keys = try held.directory("keys", fileSystem: fileSystem)
        try DataDirectory.check(keys)
        removeLeftoverTemporaries(in: keys)
        if !keys.contains(macKeyName) || !keys.contains(headKeyName) {
            try refuseToReplaceLostKeys(keys, in: held)
            // Two processes opening a new data directory at once must not both make keys: the second rename would
            // replace the first's key after the first had signed with it. Made under a lock, checked again inside.
            let lock = KeptFileLock(name: ".lock", in: keys)
            try lock.lock()
            defer { lock.unlock() }
            if !keys.contains(macKeyName) {
                try fileSystem.replaceAtomically(macKeyName, in: keys, with: SecureRandom.bytes(32), mode: 0o600)
            }
            if !keys.contains(headKeyName) {
                let key = try P256PrivateKey.generate()
                try fileSystem.replaceAtomically(
                    headKeyName, in: keys, with: Array(key.pemRepresentation.utf8), mode: 0o600)
                try fileSystem.replaceAtomically(
                    headPublicKeyName, in: keys, with: Array(key.publicKey.pemRepresentation.utf8), mode: 0o600)
            }
        }
        return try load(from: keys)
    }

    /// Keys are made for a new data directory (or one whose ledger was made before signing, or whose keys were being
    /// made when a process died), never to stand in for lost ones: once a head was signed here, a missing key means
    /// what it signed can no longer be checked, and a new one would only hide that. Nothing is made; the error says
    /// so.
    private static func refuseToReplaceLostKeys(_ keys: DirectoryHandle, in held: HeldDataDirectory) throws {
        let heads = (try? held.existingDirectory("heads"))?.flatMap { try? $0.names() } ?? []
        guard heads.contains(where: { $0.hasSuffix(".json") }) else { return }
        let missing = [macKeyName, headKeyName].filter { !keys.contains($0) }.map { keys.path(of: $0) }
        let them = missing.count == 1 ? "it" : "them"
        throw LedgerError.invalid(
            "\(missing.joined(separator: " and ")) \(missing.count == 1 ? "is" : "are") missing, but this data "
                + "directory's ledger was signed with \(them): without \(them) nothing here can be checked. Restore "
                + "\(them) from a backup; no new key was made")
    }

    /// Removes what a process killed while making keys left in `keys/` (temporary files only, regular files only),
    /// under the keys' lock, which every writer of `keys/` holds: none of them is in use.
    private static func removeLeftoverTemporaries(in keys: DirectoryHandle) {
        guard let names = try? keys.names(), names.contains(where: DataDirectory.isTemporaryName) else { return }
        let lock = KeptFileLock(name: ".lock", in: keys)
        guard (try? lock.lock()) != nil else { return }
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
        return LedgerKeys(macKey: macKey, headKey: try headKey(pem, path: headKeyPath(in: dataDirectory)))
    }

    /// Loads existing keys through `keys/` held open (never through a link); throws if they are missing or readable
    /// by others, as ``load(from:)`` does.
    static func load(from keys: DirectoryHandle) throws -> LedgerKeys {
        let macKey = try readKey(macKeyName, in: keys)
        guard macKey.count >= 16 else {
            throw LedgerError.invalid("\(keys.path(of: macKeyName)) is too short to be a ledger key")
        }
        let pem = try readKey(headKeyName, in: keys)
        return LedgerKeys(macKey: macKey, headKey: try headKey(pem, path: keys.path(of: headKeyName)))
    }

    /// The head-signing key in `pem`, read from `path`: one that cannot be read is named, with what to do.
    private static func headKey(_ pem: [UInt8], path: String) throws -> P256PrivateKey {
        do {
            return try P256PrivateKey(pemRepresentation: String(decoding: pem, as: UTF8.self))
        } catch {
            throw LedgerError.invalid(
                "\(path) is not a head-signing key: no P-256 private key can be read from it (the file is damaged). "
                    + "Restore it from a backup of this data directory, or copy keys/head-signing.pem from another "
                    + "device of this account (every device has the same); nothing was written")
        }
    }

    /// The key file `name` in `keys`, refused when group or others have any permission on it (as ``KeyFile`` does).
    private static func readKey(_ name: String, in keys: DirectoryHandle) throws -> [UInt8] {
        let fd = try keys.openRegularForReading(name)
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError(path: keys.path(of: name), operation: .fstat, errno: errno) }
        guard info.st_mode & 0o077 == 0 else {
            throw SigningError.insecureKeyFile(path: keys.path(of: name), mode: UInt32(info.st_mode))
        }
        // A key is 32 bytes, a signing key a PEM file of a few hundred: anything much larger is not one, and is not
        // read into memory.
        guard info.st_size <= maximumKeyFileBytes else {
            throw LedgerError.invalid(
                "\(keys.path(of: name)) holds \(info.st_size) bytes: that is no key of this ledger (a ledger key is 32 "
                    + "bytes, a signing key a short PEM file)")
        }
        return try Files.readAll(fd: fd, path: keys.path(of: name), from: 0)
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
