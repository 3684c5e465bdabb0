import DurableFiles
import Foundation
import Signing
import Testing

/// Key files (the hs256 secret, the test CA's keys and certificates) are written through the file system they are
/// given, so a fault a test puts underneath reaches them: the write fails, says so with the disk's words, and the key
/// that was there stays whole.
@Suite struct KeyFileSeamTests {
    @Test(arguments: [(FaultyFileSystem.Call.write, ENOSPC), (.sync, EIO), (.rename, EIO), (.syncDirectory, EIO)])
    func aFailedKeyWriteFailsAndKeepsTheOldKey(_ call: FaultyFileSystem.Call, _ code: Int32) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("store-secret.key")
        try KeyFile.write(Array("old secret".utf8), to: path)
        let disk = FaultyFileSystem()
        disk.failing = (call, code)
        let error = #expect(throws: SigningError.self) {
            try KeyFile.write(Array("new secret".utf8), to: path, fileSystem: disk)
        }
        let words = error.map { "\($0)" } ?? ""
        #expect(
            words.contains(call == .syncDirectory ? directory.path : "store-secret.key")
                && words.contains(String(cString: strerror(code))), "\(words)")
        #expect(disk.opened.contains { $0.path.contains("store-secret.key") }, "the key was written through the seam")
        if call != .syncDirectory {
            #expect(try KeyFile.read(path) == Array("old secret".utf8))
        }
        #expect(try Files.list(directory.path) == ["store-secret.key"], "no temporary file left behind")
    }
}

// Linux only, as TestCertificateAuthority is.
#if !canImport(CryptoKit)
    extension KeyFileSeamTests {
        @Test(arguments: [(FaultyFileSystem.Call.makeDirectory, EACCES), (.write, ENOSPC), (.rename, EIO)])
        func aFailedCertificateAuthorityWriteFails(_ call: FaultyFileSystem.Call, _ code: Int32) throws {
            let directory = try TemporaryDirectory()
            let authority = try TestCertificateAuthority.make(validFrom: Date(timeIntervalSince1970: 1_700_000_000))
            let disk = FaultyFileSystem()
            disk.failing = (call, code)
            let error = #expect(throws: SigningError.self) {
                try authority.write(to: directory.file("ca"), fileSystem: disk)
            }
            #expect("\(error.map { "\($0)" } ?? "")".contains(String(cString: strerror(code))))
            let written = (try? Files.list(directory.file("ca"))) ?? []
            #expect(!written.contains { $0.hasSuffix(".key") }, "no key written behind the seam's back: \(written)")
        }
    }
#endif
