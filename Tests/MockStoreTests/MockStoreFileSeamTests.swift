import DurableFiles
import Foundation
import Signing
import TestSupport
import Testing

@testable import MockStoreCommand

/// What the mock store's command writes (its data directory, the test CA in it, `root-certificate --out`) goes
/// through the file system it is given, so a fault a test puts underneath reaches it: the command says what failed
/// in words, and nothing that was there is lost.
@Suite struct MockStoreFileSeamTests {
    @Test func aDataDirectoryThatCannotBeMadeSaysWhy() throws {
        let scratch = try TemporaryDirectory()
        let disk = FaultyFileSystem()
        disk.failing = (.makeDirectory, EACCES)
        let data = DataDirectory(path: scratch.file("store/data"))
        let error = #expect(throws: StartupError.self) { try data.create(fileSystem: disk) }
        #expect(
            error?.message.hasPrefix("cannot create data directory \(data.path): ") == true
                && error?.message.contains(String(cString: strerror(EACCES))) == true, "\(String(describing: error))")
        #expect(!Files.exists(scratch.file("store")), "nothing made behind the seam's back")
    }

    /// A first start whose CA cannot be written whole says so and leaves no half-written CA, which the next start
    /// would refuse to read: it makes the CA again.
    @Test(arguments: [(FaultyFileSystem.Call.write, ENOSPC), (.sync, EIO), (.rename, EIO)])
    func aCertificateAuthorityThatCannotBeWrittenIsNotLeftHalfWritten(_ call: FaultyFileSystem.Call, _ code: Int32)
        throws
    {
        let scratch = try TemporaryDirectory()
        let data = DataDirectory(path: scratch.file("data"))
        try data.create()
        let disk = FaultyFileSystem()
        disk.failing = (call, code)
        let error = #expect(throws: StartupError.self) {
            _ = try data.loadOrMakeCertificateAuthority(now: Date(), fileSystem: disk)
        }
        #expect(
            error?.message.hasPrefix("cannot make the test CA in \(data.certificateAuthorityPath): ") == true
                && error?.message.contains(String(cString: strerror(code))) == true, "\(String(describing: error))")
        #expect(disk.opened.contains { $0.path.hasPrefix(data.certificateAuthorityPath + "/") })
        #expect(!Files.exists(data.certificateAuthorityPath))
        let made = try data.loadOrMakeCertificateAuthority(now: Date())
        #expect(try TestCertificateAuthority.read(from: data.certificateAuthorityPath).root == made.root)
    }

    /// `root-certificate --out FILE` on a full or failing disk: the disk's trouble in words, and the certificate
    /// written before is still there, whole.
    @Test(arguments: [
        (FaultyFileSystem.Call.write, ENOSPC, "the disk is full"), (.sync, EIO, "the disk failed to write it"),
        (.rename, EIO, "the disk failed to write it"),
    ])
    func aCertificateThatCannotBeWrittenKeepsTheOldOne(_ call: FaultyFileSystem.Call, _ code: Int32, _ why: String)
        throws
    {
        let scratch = try TemporaryDirectory()
        let file = scratch.file("root.pem")
        let old = try TestCertificateAuthority.make(validFrom: Date()).root.derRepresentation
        let new = try TestCertificateAuthority.make(validFrom: Date()).root.derRepresentation
        #expect(ControlInvocation.certificate(old, to: file).status == 0)
        let before = try Files.readAll(file)
        let disk = FaultyFileSystem()
        disk.failing = (call, code)
        let failed = ControlInvocation.certificate(new, to: file, fileSystem: disk)
        #expect(failed.status == 1)
        #expect(failed.stderr == "mockstore: error: cannot write \(file): \(why)\n")
        #expect(disk.opened.contains { $0.path.contains("root.pem") }, "written through the seam")
        #expect(try Files.readAll(file) == before)
        #expect(try Files.list(scratch.path) == ["root.pem"], "no temporary file left behind")
    }
}
