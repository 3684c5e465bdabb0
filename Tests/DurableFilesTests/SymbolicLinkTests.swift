import DurableFiles
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// No call follows a symbolic link where a file belongs: appending to, creating, reading or locking through a link
/// is an error naming the path, and the file the link points at is left as it was.
@Suite struct SymbolicLinkTests {
    let directory: ScratchDirectory
    let victim: String
    let link: String

    init() throws {
        directory = try ScratchDirectory()
        victim = directory.file("victim")
        link = directory.file("device.jsonl")
        try write("victim\n", to: victim, mode: 0o600)
        try #require(symlink(victim, link) == 0)
    }

    func expectRefused(_ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("\(what) went through the link", sourceLocation: sourceLocation)
        } catch let error as FileError {
            #expect(error.path == link && error.isSymbolicLink, "\(what): \(error)", sourceLocation: sourceLocation)
            #expect(
                error.description.hasPrefix(link + ": ") && error.description.contains("symbolic link"),
                "\(what): \(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(what): \(error)", sourceLocation: sourceLocation)
        }
        #expect(contents(of: victim) == Array("victim\n".utf8), "\(what)", sourceLocation: sourceLocation)
    }
}

extension SymbolicLinkTests {
    @Test(arguments: [OpenMode.append, .createOrAppend])
    func anAppendThroughALinkIsRefused(_ mode: OpenMode) {
        expectRefused("open \(mode)") {
            let system = SystemFileSystem()
            let fd = try system.open(link, mode, permissions: 0o600)
            defer { system.close(fd) }
            try Array("x".utf8).withUnsafeBytes { try system.writeAll(fd, $0, path: link) }
        }
    }

    @Test func aReadThroughALinkIsRefused() {
        expectRefused("Files.readAll") { _ = try Files.readAll(link) }
        expectRefused("FileSystem.readFile") { _ = try SystemFileSystem().readFile(link) }
        expectRefused("readAll checking the mode") { _ = try Files.readAll(link, checkingMode: { _ in }) }
    }

    @Test func aLockFileThatIsALinkIsRefused() {
        expectRefused("FileLock") { _ = try FileLock(path: link) }
    }

    @Test func aReplaceOfALinkReplacesTheLinkNotItsTarget() throws {
        try Files.replaceAtomically(link, with: Array("new\n".utf8), mode: 0o600)
        #expect(contents(of: victim) == Array("victim\n".utf8))
        #expect(contents(of: link) == Array("new\n".utf8))
        var info = stat()
        #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
    }

    @Test func aDirectoryOrAFIFOIsNotReadAsAFile() throws {
        // Refused as what it is (EISDIR, EINVAL), and the message says what was found.
        let directoryError = FileError(path: directory.path, operation: .read, notRegularFile: S_IFDIR)
        #expect(directoryError.errno == EISDIR && directoryError.found == "a directory")
        #expect(throws: directoryError) { _ = try Files.readAll(directory.path) }
        let fifo = directory.file("fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        let fifoError = FileError(path: fifo, operation: .read, notRegularFile: S_IFIFO)
        #expect(fifoError.errno == EINVAL && fifoError.description.contains("a named pipe (FIFO)"))
        #expect(throws: fifoError) { _ = try Files.readAll(fifo) }
    }
}
