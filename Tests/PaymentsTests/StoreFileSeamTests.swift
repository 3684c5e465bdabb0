import DurableFiles
import Foundation
import Payments
import Signing
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `store.json` (the updates cursor with it) is written through the file system it is given, so a fault a test puts
/// under the ledger reaches it: it fails as the disk failed, and the cursor on disk is the last one written whole.
@Suite struct StoreFileSeamTests {
    @Test(arguments: [(FaultyFileSystem.Call.write, ENOSPC), (.sync, EIO), (.rename, EIO)])
    func aFailedCursorWriteFailsAndKeepsTheLastCursor(_ call: FaultyFileSystem.Call, _ code: Int32) throws {
        let directory = try TemporaryDirectory()
        var configuration = StoreConfiguration(store: .mockstore, url: "http://127.0.0.1:1", updatesCursor: "5")
        try configuration.save(to: directory.path)
        let disk = FaultyFileSystem()
        disk.failing = (call, code)
        configuration.updatesCursor = "9"
        let error = #expect(throws: StoreConfigurationError.self) {
            try configuration.save(to: directory.path, fileSystem: disk)
        }
        #expect(error?.description.contains(String(cString: strerror(code))) == true, "\(String(describing: error))")
        #expect(disk.opened.contains { $0.path.hasPrefix(directory.path + "/") && $0.path.contains("store.json") })
        #expect(try StoreConfiguration.load(from: directory.path).updatesCursor == "5")
    }

    @Test func aStoreSwitchPinsItsRootThroughTheSeam() throws {
        let directory = try TemporaryDirectory()
        let disk = FaultyFileSystem()
        disk.failing = (.syncDirectory, EIO)
        #expect(throws: StoreConfigurationError.self) {
            _ = try StoreConfiguration.useMockStore(
                url: "http://127.0.0.1:1", rootCertificate: nil, secret: Array("secret".utf8), bundleID: "dev.example",
                in: directory.file("data"), fileSystem: disk)
        }
    }

    /// The hs256 secret is a key file written through the seam too: a full disk fails the switch with the disk's
    /// words, and the secret pinned before stays whole.
    @Test func aFailedSecretWriteKeepsTheSecretPinnedBefore() throws {
        let directory = try TemporaryDirectory()
        let data = directory.file("data")
        _ = try StoreConfiguration.useMockStore(
            url: "http://127.0.0.1:1", rootCertificate: nil, secret: Array("old secret".utf8),
            bundleID: "dev.example", in: data)
        let disk = FaultyFileSystem()
        disk.failing = (.write, ENOSPC)
        let error = #expect(throws: (any Error).self) {
            _ = try StoreConfiguration.useMockStore(
                url: "http://127.0.0.1:1", rootCertificate: nil, secret: Array("new secret".utf8),
                bundleID: "dev.example", in: data, fileSystem: disk)
        }
        let words = error.map { "\($0)" } ?? ""
        #expect(words.contains("store-secret") && words.contains(String(cString: strerror(ENOSPC))), "\(words)")
        #expect(disk.opened.contains { $0.path.contains("store-secret") }, "the secret went through the seam")
        #expect(try KeyFile.read(data + "/store-secret") == Array("old secret".utf8))
    }
}
