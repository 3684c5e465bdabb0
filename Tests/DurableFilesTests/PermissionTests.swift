import DurableFiles
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files get exactly the mode asked for and directories exactly 0700, whatever the umask (which could otherwise widen
/// nothing but narrow anything). Each case runs in a fresh process of this test bundle started under its own umask
/// (``inFreshProcess(umask:_:in:)``): a forked copy of this many-threaded process could wait for ever on a lock one
/// of its other threads held at the fork, as one did in CI.
@Suite struct PermissionTests {}

/// What a fresh process under another umask does, in a directory it is given.
enum UmaskScenario: String, Sendable {
    case directories, files

    /// The files this scenario makes, and the mode each must have.
    static let wantedFiles: [(String, mode_t)] = [("store.json", 0o644), ("key", 0o600), ("shared", 0o640)]

    /// Makes what the scenario makes in `directory`; false when a call failed.
    func run(in directory: String) -> Bool {
        let system = SystemFileSystem()
        switch self {
        case .directories:
            return (try? Files.makeDirectories(directory + "/a/b/c")) != nil
                && (try? system.makeDirectory(directory + "/single", permissions: 0o700)) != nil
        case .files:
            for (name, mode) in Self.wantedFiles {
                guard (try? system.replaceAtomically(directory + "/" + name, with: [1], mode: mode)) != nil else {
                    return false
                }
            }
            guard let fd = try? system.open(directory + "/device.jsonl", .createOrAppend, permissions: 0o640)
            else { return false }
            system.close(fd)
            return true
        }
    }

    /// The variable that makes this bundle the fresh process: `SCENARIO:DIRECTORY`.
    static let variable = "DURABLE_FILES_UMASK_PROBE"
}

/// Runs `scenario` in `directory` in this test bundle started again, alone, by a shell that set `mask` first (so the
/// umask is the process's from its start, with no other thread); whether it succeeded.
func inFreshProcess(umask mask: mode_t, _ scenario: UmaskScenario, in directory: String) async throws -> Bool {
    let bundle = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    var environment = ProcessInfo.processInfo.environment
    environment[UmaskScenario.variable] = scenario.rawValue + ":" + directory
    let runner = try ChildProcess(
        "/bin/sh",
        [
            "-c", "umask \(String(mask, radix: 8)) && exec \"$0\" \"$@\"", bundle, "--testing-library", "swift-testing",
            "--filter", "umaskProbe",
        ], environment: environment)
    let result = await runner.wait(timeout: 180)
    #expect(result.status == 0 && !result.signaled, "the fresh process: \(result)")
    return FileManager.default.fileExists(atPath: directory + "/probe-done")
}

extension PermissionTests {
    /// The fresh process's part: only when started by ``inFreshProcess(umask:_:in:)``.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[UmaskScenario.variable] != nil, "only in a fresh process"))
    func umaskProbe() throws {
        let job = try #require(ProcessInfo.processInfo.environment[UmaskScenario.variable])
        let parts = job.split(separator: ":", maxSplits: 1).map(String.init)
        let scenario = try #require(UmaskScenario(rawValue: parts[0]))
        if scenario.run(in: parts[1]) {
            FileManager.default.createFile(atPath: parts[1] + "/probe-done", contents: nil)
        }
    }

    @Test(arguments: [mode_t(0o000), 0o077, 0o277])
    func directoriesAre0700WhateverTheUmask(_ mask: mode_t) async throws {
        let directory = try ScratchDirectory()
        #expect(try await inFreshProcess(umask: mask, .directories, in: directory.path))
        for path in [directory.file("a"), directory.file("a/b"), directory.file("a/b/c"), directory.file("single")] {
            #expect(permissions(of: path) == 0o700, "\(path) under umask \(String(mask, radix: 8))")
        }
    }

    @Test(arguments: [mode_t(0o000), 0o077])
    func filesKeepTheRequestedModeWhateverTheUmask(_ mask: mode_t) async throws {
        let directory = try ScratchDirectory()
        #expect(try await inFreshProcess(umask: mask, .files, in: directory.path))
        for (name, mode) in UmaskScenario.wantedFiles + [("device.jsonl", 0o640)] {
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
