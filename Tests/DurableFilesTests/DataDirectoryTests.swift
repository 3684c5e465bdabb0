import DurableFiles
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The data directory as hostile input, at the seam: a directory that is a link, another user's, or writable by
/// others is refused with the fix; nothing but a regular file is opened where a file belongs (a FIFO at once, not
/// after waiting); temporaries are removed only when they are ours and regular files.
@Suite struct DataDirectoryTests {
    let directory: ScratchDirectory

    init() throws { directory = try ScratchDirectory() }

    @Test func aPrivateDirectoryOfTheUserPasses() throws {
        let data = directory.file("data")
        try DataDirectory.check(data)  // missing: nothing to trust yet
        #expect(mkdir(data, 0o700) == 0)
        try DataDirectory.check(data, subdirectories: ["ledger"])
        #expect(DataDirectory.isWritable(data))
    }

    @Test func aLinkAFileOrAWritableDirectoryIsRefused() throws {
        let data = directory.file("data")
        #expect(mkdir(data, 0o700) == 0)
        let link = directory.file("link")
        #expect(symlink(data, link) == 0)
        #expect(throws: DataDirectoryError.symbolicLink(path: link)) { try DataDirectory.check(link) }
        try write("x", to: directory.file("file"))
        #expect(throws: DataDirectoryError.notADirectory(path: directory.file("file"), found: "a regular file")) {
            try DataDirectory.check(directory.file("file"))
        }
        for mode: mode_t in [0o777, 0o720, 0o702, 0o1777] {
            #expect(chmod(data, mode) == 0)
            #expect(throws: DataDirectoryError.writableByOthers(path: data, mode: UInt32(mode))) {
                try DataDirectory.check(data)
            }
        }
        #expect(DataDirectoryError.writableByOthers(path: data, mode: 0o777).description.contains("chmod 700 \(data)"))
        #expect(chmod(data, 0o700) == 0)
        let sub = data + "/ledger"
        #expect(mkdir(sub, 0o700) == 0 && chmod(sub, 0o777) == 0)
        #expect(throws: DataDirectoryError.writableByOthers(path: sub, mode: 0o777)) {
            try DataDirectory.check(data, subdirectories: ["ledger"])
        }
    }

    @Test(.enabled(if: geteuid() == 0, "chown needs root"))
    func anotherUsersDirectoryIsRefusedWithTheFix() throws {
        let data = directory.file("data")
        #expect(mkdir(data, 0o700) == 0 && chown(data, 65534, 65534) == 0)
        let error = DataDirectoryError.ownedByAnotherUser(path: data, owner: 65534, user: 0)
        #expect(throws: error) { try DataDirectory.check(data) }
        #expect(error.description.contains("chown -R 0 \(data)") && error.description.contains("git"))
    }

    @Test func aFIFOOrADirectoryWhereAFileBelongsIsRefusedAtOnce() throws {
        let fifo = directory.file("x.jsonl")
        #expect(mkfifo(fifo, 0o600) == 0)
        let system = SystemFileSystem()
        for mode in [OpenMode.append, .createOrAppend] {
            #expect(throws: FileError.self) { _ = try system.open(fifo, mode, permissions: 0o600) }
        }
        do {
            _ = try system.open(fifo, .append, permissions: 0o600)
        } catch let error as FileError {
            #expect(error.found == "a named pipe (FIFO)" && error.description.contains(fifo))
        }
        #expect(throws: FileError.self) { _ = try FileLock(path: fifo) }
        #expect(throws: FileError.self) { _ = try FileLock(readingPath: fifo) }
        #expect(throws: FileError.self) { _ = try Files.regularFileSize(fifo) }
        let sub = directory.file("d.jsonl")
        #expect(mkdir(sub, 0o700) == 0)
        do {
            _ = try system.open(sub, .append, permissions: 0o600)
            Issue.record("a directory was opened for append")
        } catch let error as FileError {
            #expect(error.found == "a directory")
        }
        // A regular file still opens, blocking as before.
        let file = directory.file("ok.jsonl")
        let fd = try system.open(file, .createOrAppend, permissions: 0o600)
        #expect(fcntl(fd, F_GETFL) & O_NONBLOCK == 0)
        system.close(fd)
    }

    @Test func aReaderLocksWithoutMakingAnything() throws {
        let path = directory.file(".lock")
        let lock = try FileLock(readingPath: path)
        #expect(!FileManager.default.fileExists(atPath: path), "no lock file made")
        lock.unlock()
        let writer = try FileLock(path: path)
        writer.unlock()
        let reader = try FileLock(readingPath: path)
        reader.unlock()
    }

    /// Not waiting, a lock another holds is said as such at once; released, it is taken.
    @Test func aLockNotWaitedForIsRefusedWhileHeldAndTakenOnceReleased() throws {
        let path = directory.file("store.lock")
        let holder = try FileLock(path: path)
        do {
            _ = try FileLock(path: path, waiting: false)
            Issue.record("a held lock was taken again")
        } catch let error as FileError {
            #expect(error.isHeldElsewhere && error.path == path)
        }
        holder.unlock()
        holder.unlock()  // twice is harmless
        let second = try FileLock(path: path, waiting: false)
        second.unlock()
        #expect(symlink(path, directory.file("link.lock")) == 0)
        #expect(throws: FileError.self) { _ = try FileLock(path: directory.file("link.lock"), waiting: false) }
    }

    @Test func onlyOurTemporaryRegularFilesAreRemoved() throws {
        let victim = directory.file("victim")
        try write("victim", to: victim)
        let ours = [".a.tmp-0123456789abcdef", "b.tmp-4242", "c.json.tmp-00ff"]
        for name in ours { try write("x", to: directory.file(name)) }
        #expect(symlink(victim, directory.file(".d.tmp-0123456789abcdef")) == 0)
        #expect(mkdir(directory.file(".e.tmp-12"), 0o700) == 0)
        try write("keep", to: directory.file("f.tmp-notahex"))
        let removed = DataDirectory.removeTemporaries(in: directory.path) { _, _ in true }
        #expect(Set(removed) == Set(ours.map(directory.file)))
        #expect(try directory.names() == [".d.tmp-0123456789abcdef", ".e.tmp-12", "f.tmp-notahex", "victim"])
        #expect(contents(of: victim) == Array("victim".utf8))
        // The age is the caller's to judge: a fresh file is kept when it says so.
        try write("x", to: directory.file(".g.tmp-1"))
        #expect(DataDirectory.removeTemporaries(in: directory.path) { _, age in age >= 600 }.isEmpty)
    }

    @Test func narrowingMakesDirectoriesAndFilesPrivateButFollowsNoLink() throws {
        let data = directory.file("data")
        #expect(mkdir(data, 0o755) == 0 && chmod(data, 0o755) == 0)
        try write("x", to: data + "/plain", mode: 0o644)
        try write("s", to: data + "/secret", mode: 0o644)
        let victim = directory.file("victim")
        try write("v", to: victim, mode: 0o644)
        #expect(symlink(victim, data + "/link") == 0)
        DataDirectory.narrow(data) { $0 != "secret" }
        #expect(permissions(of: data) == 0o700)
        #expect(permissions(of: data + "/plain") == 0o600)
        #expect(permissions(of: data + "/secret") == 0o644)
        #expect(permissions(of: victim) == 0o644)
    }
}
