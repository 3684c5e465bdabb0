import DurableFiles
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What fails reaches the caller naming the path and the call, in the system's words: a failure a layer injects
/// through the ``FileSystem`` protocol as it was made, and the real system's failures as ``FileError``s.
@Suite struct FaultSurfacingTests {}

extension FaultSurfacingTests {
    @Test(arguments: [
        (FaultyFileSystem.Call.write, ENOSPC, FileError.Operation.write), (.sync, EIO, .fsync),
        (.rename, EIO, .rename), (.open, EACCES, .open),
    ])
    func aFailureInjectedThroughTheProtocolReachesTheCaller(
        _ call: FaultyFileSystem.Call, _ code: Int32, _ operation: FileError.Operation
    )
        throws
    {
        let directory = try ScratchDirectory()
        let path = directory.file("head.json")
        let disk = FaultyFileSystem()
        disk.failing = (call, code)
        do {
            try disk.replaceAtomically(path, with: Array("new".utf8))
            Issue.record("no error reached the caller")
        } catch let error as FileError {
            #expect(error.errno == code && error.operation == operation, "\(error)")
            // The temporary's path or the target's, both in the data directory beside `path`.
            #expect(error.path.hasPrefix(directory.path + "/") && error.path.contains("head.json"), "\(error)")
            #expect(
                error.description == "\(error.path): \(operation.rawValue) failed: \(String(cString: strerror(code)))")
        }
    }

    @Test func aFailedDirectoryMakingNamesTheDirectory() throws {
        let directory = try ScratchDirectory()
        let disk = FaultyFileSystem()
        disk.failing = (.makeDirectory, EROFS)
        #expect(throws: FileError(path: directory.file("ledger"), operation: .mkdir, errno: EROFS)) {
            try disk.makeDirectories(directory.file("ledger/heads"))
        }
    }

    @Test func realFailuresNameThePathAndTheCall() throws {
        let directory = try ScratchDirectory()
        let missing = directory.file("no/such/file")
        #expect(throws: FileError(path: missing, operation: .open, errno: ENOENT)) { _ = try Files.readAll(missing) }
        #expect(throws: FileError(path: missing, operation: .openForAppend, errno: ENOENT)) {
            _ = try SystemFileSystem().open(missing, .append, permissions: 0o600)
        }
        let temporaryError = #expect(throws: FileError.self) {
            try Files.replaceAtomically(missing, with: [1])
        }
        #expect(temporaryError?.operation == .create && temporaryError?.errno == ENOENT)
        #expect(temporaryError?.path.hasPrefix(directory.file("no/such/.file.tmp-")) == true)
        #expect(
            FileError(path: "/d/f", operation: .write, errno: ENOSPC).description
                == "/d/f: write failed: \(String(cString: strerror(ENOSPC)))")
    }

    @Test func aModeCheckCanRefuseTheFileBeforeItIsRead() throws {
        let directory = try ScratchDirectory()
        let path = directory.file("key")
        try write("secret", to: path, mode: 0o644)
        struct Wide: Error {}
        #expect(throws: Wide.self) {
            _ = try Files.readAll(path, checkingMode: { mode in if mode & 0o077 != 0 { throw Wide() } })
        }
        var seen: mode_t?
        let bytes = try Files.readAll(path, checkingMode: { seen = $0 })
        #expect(bytes == Array("secret".utf8) && seen == 0o644)
    }
}
