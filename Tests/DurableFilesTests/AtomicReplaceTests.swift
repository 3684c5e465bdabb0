import DurableFiles
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// ``FileSystem/replaceAtomically(_:with:mode:syncingDirectory:)``: the old file or the new one, never a partial or
/// missing one; a temporary name nobody can guess, created exclusively, so nothing planted at it is ever written.
@Suite struct AtomicReplaceTests {}

extension AtomicReplaceTests {
    @Test func aSuccessfulReplaceLeavesTheNewFileAndNoTemporary() throws {
        let directory = try ScratchDirectory()
        let path = directory.file("head.json")
        try write("old", to: path)
        try SystemFileSystem().replaceAtomically(path, with: Array("new".utf8), mode: 0o600)
        #expect(contents(of: path) == Array("new".utf8))
        #expect(permissions(of: path) == 0o600)
        #expect(try directory.names() == ["head.json"])
    }

    @Test(arguments: [
        FaultyFileSystem.Call.open, .write, .sync, .rename,
    ])
    func aFailureAtAnyStepLeavesTheOldFile(_ call: FaultyFileSystem.Call) throws {
        let directory = try ScratchDirectory()
        let path = directory.file("device")
        try write("old", to: path)
        let disk = FaultyFileSystem()
        disk.failing = (call, EIO)
        #expect(throws: FileError.self) { try disk.replaceAtomically(path, with: Array("new".utf8)) }
        #expect(contents(of: path) == Array("old".utf8), "failed at \(call)")
        if call == .write || call == .sync {
            // The temporary written so far is removed.
            #expect(try directory.names() == ["device"], "failed at \(call)")
        }
    }

    @Test func aFailedDirectorySyncComesAfterTheRename() throws {
        let directory = try ScratchDirectory()
        let path = directory.file("device")
        try write("old", to: path)
        let disk = FaultyFileSystem()
        disk.failing = (.syncDirectory, EIO)
        #expect(throws: FileError(path: directory.path, operation: .fsyncDirectory, errno: EIO)) {
            try disk.replaceAtomically(path, with: Array("new".utf8))
        }
        #expect(contents(of: path) == Array("new".utf8))
        // Without a directory sync, none is made (and so none can fail).
        try disk.replaceAtomically(path, with: Array("newer".utf8), syncingDirectory: false)
        #expect(contents(of: path) == Array("newer".utf8))
    }

    @Test func temporaryNamesAreHiddenBesideTheTargetAndUnpredictable() throws {
        let names = (0..<64).map { _ in Files.temporaryPath(for: "/data/heads/device.json") }
        #expect(Set(names).count == names.count)
        for name in names {
            #expect(name.hasPrefix("/data/heads/.device.json.tmp-"), "\(name)")
            let digits = name.dropFirst("/data/heads/.device.json.tmp-".count)
            #expect(digits.count == 16 && digits.allSatisfy(\.isHexDigit) && digits == digits.lowercased(), "\(name)")
            #expect(!name.hasSuffix(".tmp-\(getpid())"), "\(name)")
        }
        #expect(Files.temporaryPath(for: "store.json").hasPrefix(".store.json.tmp-"))
    }

    @Test func theTemporaryIsOpenedExclusivelyWithoutFollowingLinks() throws {
        let directory = try ScratchDirectory()
        let disk = FaultyFileSystem()
        try disk.replaceAtomically(directory.file("k"), with: [1])
        #expect(disk.opened.map(\.mode) == [.replace])
        #expect(
            OpenMode.replace.flags & (O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC) == O_CREAT | O_EXCL | O_NOFOLLOW
                | O_CLOEXEC)
        #expect(OpenMode.replace.flags & O_TRUNC == 0)
    }

    /// Someone who learns the temporary name just before it is created (here: the layer plants something there at
    /// the last moment) gets the replace refused, and what they planted is never written.
    @Test(arguments: ["a file", "a link to a file", "a dangling link"])
    func somethingPlantedAtTheTemporaryNameIsNeverWritten(_ planted: String) throws {
        let directory = try ScratchDirectory()
        let path = directory.file("store.json")
        let victim = directory.file("victim")
        try write("old", to: path)
        try write("victim", to: victim)
        let disk = FaultyFileSystem()
        var temporary = ""
        disk.beforeOpen = { name, _ in
            temporary = name
            switch planted {
            case "a file": _ = try? write("planted", to: name)
            case "a link to a file": _ = symlink(victim, name)
            default: _ = symlink(directory.file("nowhere"), name)
            }
        }
        do {
            try disk.replaceAtomically(path, with: Array("new".utf8))
            Issue.record("the replace went ahead over \(planted)")
        } catch let error as FileError {
            #expect(error == FileError(path: temporary, operation: .create, errno: EEXIST), "\(error)")
        }
        #expect(contents(of: path) == Array("old".utf8))
        #expect(contents(of: victim) == Array("victim".utf8))
        #expect(!Files.exists(directory.file("nowhere")))
        if planted == "a file" { #expect(contents(of: temporary) == Array("planted".utf8)) }
    }

    /// The name the old routines used (`<name>.tmp-<pid>`) is predictable; a link planted there is left alone.
    @Test func aLinkAtThePredictableOldNameIsLeftAlone() throws {
        let directory = try ScratchDirectory()
        let path = directory.file("device")
        let victim = directory.file("victim")
        try write("victim", to: victim)
        #expect(symlink(victim, path + ".tmp-\(getpid())") == 0)
        try Files.replaceAtomically(path, with: Array("mine".utf8), mode: 0o600)
        #expect(contents(of: path) == Array("mine".utf8))
        #expect(contents(of: victim) == Array("victim".utf8))
    }
}
