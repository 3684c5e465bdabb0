import DurableFiles
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files get exactly the mode asked for and directories exactly 0700, whatever the umask (which could otherwise widen
/// nothing but narrow anything). Each case runs in a child process with its own umask (see ``inChild(umask:_:)``).
@Suite struct PermissionTests {}

extension PermissionTests {
    @Test(arguments: [mode_t(0o000), 0o077, 0o277])
    func directoriesAre0700WhateverTheUmask(_ mask: mode_t) throws {
        let directory = try ScratchDirectory()
        try Files.makeDirectories(directory.file("warm/up"))
        let nested = directory.file("a/b/c")
        let single = directory.file("single")
        let made = inChild(umask: mask) {
            (try? Files.makeDirectories(nested)) != nil
                && (try? SystemFileSystem().makeDirectory(single, permissions: 0o700)) != nil
        }
        #expect(made)
        for path in [directory.file("a"), directory.file("a/b"), nested, single] {
            #expect(permissions(of: path) == 0o700, "\(path) under umask \(String(mask, radix: 8))")
        }
    }

    @Test(arguments: [mode_t(0o000), 0o077])
    func filesKeepTheRequestedModeWhateverTheUmask(_ mask: mode_t) throws {
        let directory = try ScratchDirectory()
        let system = SystemFileSystem()
        // Once in this process first, so the child only repeats calls the runtime has seen.
        try system.replaceAtomically(directory.file("warm"), with: [1], mode: 0o644)
        let fd = try system.open(directory.file("warm.jsonl"), .createOrAppend, permissions: 0o600)
        system.close(fd)
        let wanted: [(String, mode_t)] = [("store.json", 0o644), ("key", 0o600), ("shared", 0o640)]
        let made = inChild(umask: mask) {
            for (name, mode) in wanted {
                guard (try? system.replaceAtomically(directory.file(name), with: [1], mode: mode)) != nil else {
                    return false
                }
            }
            guard let fd = try? system.open(directory.file("device.jsonl"), .createOrAppend, permissions: 0o640)
            else { return false }
            system.close(fd)
            return true
        }
        #expect(made)
        for (name, mode) in wanted + [("device.jsonl", 0o640)] {
            #expect(permissions(of: directory.file(name)) == mode, "\(name) under umask \(String(mask, radix: 8))")
        }
    }

    /// Only what the call creates gets the mode: an existing file keeps its own.
    @Test func anExistingFileKeepsItsMode() throws {
        let directory = try ScratchDirectory()
        let path = directory.file("device.jsonl")
        try write("line\n", to: path, mode: 0o644)
        let system = SystemFileSystem()
        for mode in [OpenMode.append, .createOrAppend] {
            let fd = try system.open(path, mode, permissions: 0o600)
            system.close(fd)
        }
        #expect(permissions(of: path) == 0o644)
        #expect(contents(of: path) == Array("line\n".utf8))
    }

    @Test func anExistingDirectoryIsAcceptedAsItIs() throws {
        let directory = try ScratchDirectory()
        let path = directory.file("shared")
        try #require(mkdir(path, 0o755) == 0 && chmod(path, 0o755) == 0)
        try SystemFileSystem().makeDirectory(path, permissions: 0o700)
        try Files.makeDirectories(path)
        #expect(permissions(of: path) == 0o755)
    }
}
