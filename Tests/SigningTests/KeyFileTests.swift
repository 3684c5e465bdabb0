import Foundation
import Signing
import Testing

@Suite struct KeyFileTests {}

extension KeyFileTests {
    private func mode(of path: String) throws -> mode_t {
        var status = stat()
        try #require(stat(path, &status) == 0, "stat \(path)")
        return status.st_mode & 0o777
    }

    @Test func writesMode0600AndReadsBack() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("ledger.key")
        let secret = SecureRandom.bytes(32)
        try KeyFile.write(secret, to: path)
        #expect(try mode(of: path) == 0o600)
        #expect(try KeyFile.read(path) == secret)
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["ledger.key"])
    }

    @Test func replacesAnExistingFileAtomically() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("k")
        try KeyFile.write([1], to: path)
        try KeyFile.write([2, 2], to: path)
        #expect(try KeyFile.read(path) == [2, 2])
        #expect(try mode(of: path) == 0o600)
    }

    /// Replacing a world-readable file gives a 0600 file, not the old mode.
    @Test func replacingAWideFileNarrowsIt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("k")
        try #require(
            FileManager.default.createFile(atPath: path, contents: Data([9]), attributes: [.posixPermissions: 0o644])
        )
        try KeyFile.write([1], to: path)
        #expect(try mode(of: path) == 0o600)
    }

    @Test(arguments: [0o644, 0o640, 0o604, 0o660, 0o606, 0o700 | 0o004, 0o610])
    func refusesGroupOrOtherBits(_ permissions: Int) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("wide.key")
        try KeyFile.write([1, 2, 3], to: path)
        try #require(chmod(path, mode_t(permissions)) == 0)
        let error = expectSigningError(.insecureKeyFile) { _ = try KeyFile.read(path) }
        let message = try #require(error?.message)
        #expect(message.contains(path), "names the path: \(message)")
        #expect(message.contains("0" + String(permissions, radix: 8)), "names the mode: \(message)")
        #expect(message.contains("chmod 600 \(path)"), "names the fix: \(message)")
    }

    @Test func acceptsOwnerOnlyModes() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("k")
        try KeyFile.write([7], to: path)
        try #require(chmod(path, 0o400) == 0)
        #expect(try KeyFile.read(path) == [7])
    }

    @Test func missingFileIsAFileSystemErrorNamingThePath() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("absent.key")
        let error = expectSigningError(.fileSystem) { _ = try KeyFile.read(path) }
        #expect(error?.message.contains(path) == true)
        #expect(error?.message.contains("No such file") == true, "\(String(describing: error))")
    }

    @Test func writeIntoMissingDirectoryFails() throws {
        let directory = try TemporaryDirectory()
        expectSigningError(.fileSystem) { try KeyFile.write([1], to: directory.file("no/such/dir/k")) }
    }

    @Test func refusesADirectory() throws {
        let directory = try TemporaryDirectory()
        try #require(chmod(directory.path, 0o700) == 0)
        expectSigningError(.fileSystem) { _ = try KeyFile.read(directory.path) }
    }

    @Test func privateKeyRoundTripThroughAKeyFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("head.key")
        let key = try P256PrivateKey.generate()
        try KeyFile.write(Array(key.pemRepresentation.utf8), to: path)
        let loaded = try P256PrivateKey(pemRepresentation: String(decoding: try KeyFile.read(path), as: UTF8.self))
        #expect(loaded.publicKey.derRepresentation == key.publicKey.derRepresentation)
    }
}
