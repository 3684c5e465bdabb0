import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 14 through the real binary: a data directory owned by another user or writable by others refused (runs as
/// user `nobody` through `setpriv`), links never followed, a killed process's temporaries removed, modes narrow
/// under umask 000, and a read-only data directory (mode 0500, a read-only bind mount) read without writing.
@Suite(.enabled(if: HostileCommand.canSwitchUsers, "needs root, setpriv and a checkout nobody may enter"))
struct HostileDataDirectoryCommandTests {
    /// A scratch directory nobody can traverse into, and a data directory in it.
    final class Scratch {
        let temporary: TemporaryDirectory
        let data: String
        /// `nobody`: the data directory made (empty) and given to user nobody, who cannot make it here.
        init(nobody: Bool = false) throws {
            temporary = try TemporaryDirectory(prefix: "hostile-e2e")
            _ = chmod(temporary.path, 0o755)
            data = temporary.path + "/data"
            if nobody {
                try #require(mkdir(data, 0o700) == 0 && chown(data, 65534, 65534) == 0)
            }
        }
    }

    @Test func aDataDirectoryOfAnotherUserIsRefusedEitherWay() async throws {
        // Made by root, used by nobody.
        let scratch = try Scratch()
        try await HostileCommand.expectOK(try HostileCommand.run(["charge", "debrief"], data: scratch.data))
        var before = HostileCommand.snapshot(scratch.data)
        var result = try await HostileCommand.run(["entries"], data: scratch.data, asNobody: true)
        #expect(result.status != 0 && result.stderr.contains("owned by another user"), "\(result)")
        #expect(result.stderr.contains("chown -R 65534 \(scratch.data)"), "\(result)")
        #expect(HostileCommand.snapshot(scratch.data) == before)
        // Made by nobody, used by root: refused too (as git refuses), nothing written as root.
        let other = try Scratch(nobody: true)
        try await HostileCommand.expectOK(try HostileCommand.run(["charge", "send"], data: other.data, asNobody: true))
        before = HostileCommand.snapshot(other.data)
        result = try await HostileCommand.run(["charge", "debrief"], data: other.data)
        #expect(result.status != 0 && result.stderr.contains("chown -R 0 \(other.data)"), "\(result)")
        result = try await HostileCommand.run(["verify"], data: other.data)
        #expect(result.status != 0 && !result.stdout.contains("All holds"), "\(result)")
        #expect(HostileCommand.snapshot(other.data) == before)
    }

    @Test func aWorldWritableDataDirectoryIsRefusedWithTheFix() async throws {
        let scratch = try Scratch(nobody: true)
        try await HostileCommand.expectOK(
            try HostileCommand.run(["charge", "send"], data: scratch.data, asNobody: true))
        #expect(chmod(scratch.data, 0o777) == 0)
        let before = HostileCommand.snapshot(scratch.data)
        let result = try await HostileCommand.run(["charge", "debrief"], data: scratch.data, asNobody: true)
        #expect(result.status != 0 && result.stderr.contains("chmod 700 \(scratch.data)"), "\(result)")
        #expect(HostileCommand.snapshot(scratch.data) == before)
    }

    @Test func aReadOnlyDataDirectoryIsReadAndNothingIsWritten() async throws {
        let scratch = try Scratch(nobody: true)
        try await HostileCommand.expectOK(
            try HostileCommand.run(["charge", "debrief"], data: scratch.data, asNobody: true))
        // A torn tail too: read-only, it is not counted and not moved aside.
        let file = try HostileCommand.ledgerFile(scratch.data)
        let handle = try #require(FileHandle(forWritingAtPath: file))
        handle.seekToEndOfFile()
        handle.write(Data("{\"id\":\"half".utf8))
        handle.closeFile()
        #expect(chmod(scratch.data, 0o500) == 0)
        let before = HostileCommand.snapshot(scratch.data)
        for command in [["entries"], ["balance"], ["verify"], ["entries", "--json"]] {
            let result = try await HostileCommand.run(command, data: scratch.data, asNobody: true)
            #expect(result.status == 0 || command == ["verify"], "\(command): \(result)")
            #expect(!result.stderr.contains(".lock"), "\(command): \(result)")
            if command == ["entries"] {
                #expect(
                    result.stderr.contains("cannot be written") && result.stderr.contains("nothing was"), "\(result)")
            }
        }
        let charge = try await HostileCommand.run(["charge", "send"], data: scratch.data, asNobody: true)
        #expect(charge.status != 0 && charge.stderr.contains("cannot be written"), "\(charge)")
        #expect(HostileCommand.snapshot(scratch.data) == before, "nothing was written")
    }

    @Test func aReadOnlyBindMountIsReadAndNothingIsWritten() async throws {
        let scratch = try Scratch()
        try await HostileCommand.expectOK(try HostileCommand.run(["charge", "debrief"], data: scratch.data))
        let before = HostileCommand.snapshot(scratch.data)
        let binary = try Credit.requireBinary()
        let script = "mount --bind -o ro \"$1\" \"$1\" && exec \"$2\" --data-dir \"$1\" entries"
        let result = try await ChildProcess.run(
            "/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, "sh", scratch.data, binary],
            environment: HostileCommand.environment(scratch.temporary.path), timeout: 120)
        // Only where this process may make a mount namespace (root, as CI runs); elsewhere there is nothing to see.
        guard !result.stderr.contains("mount:") && !result.stderr.contains("unshare:") else { return }
        #expect(result.status == 0 && result.stdout.contains("Debrief"), "\(result)")
        #expect(result.stderr.contains("cannot be written"), "\(result)")
        #expect(HostileCommand.snapshot(scratch.data) == before)
    }

    @Test func underUmask000EverythingIsTheOwnersOnly() async throws {
        let scratch = try Scratch()
        let binary = try Credit.requireBinary()
        let result = try await ChildProcess.run(
            "/bin/sh", ["-c", "umask 000 && exec \"$0\" \"$@\"", binary, "--data-dir", scratch.data, "charge", "send"],
            environment: HostileCommand.environment(scratch.temporary.path), timeout: 120)
        try HostileCommand.expectOK(result)
        for (path, entry) in HostileCommand.snapshot(scratch.data) {
            let isDirectory = entry.hasPrefix("\(S_IFDIR) ")
            #expect(entry.hasPrefix(isDirectory ? "\(S_IFDIR) 700" : "\(S_IFREG) 600"), "\(path): \(entry)")
        }
    }

    @Test func linksAtTheLedgerFileAndCheckpointAreNeverFollowed() async throws {
        let scratch = try Scratch()
        try await HostileCommand.expectOK(try HostileCommand.run(["charge", "debrief"], data: scratch.data))
        let victim = scratch.temporary.path + "/victim"
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        // The checkpoint: replaced, never written through.
        let checkpoint = scratch.data + "/checkpoint"
        #expect(unlink(checkpoint) == 0 && symlink(victim, checkpoint) == 0)
        try await HostileCommand.expectOK(try HostileCommand.run(["charge", "send"], data: scratch.data))
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        // The ledger file: refused by name, for reading and for charging.
        let file = try HostileCommand.ledgerFile(scratch.data)
        #expect(unlink(file) == 0 && symlink(victim, file) == 0)
        let before = HostileCommand.snapshot(scratch.data)
        for command in [["entries"], ["charge", "debrief"]] {
            let result = try await HostileCommand.run(command, data: scratch.data)
            #expect(result.status != 0 && result.stderr.contains(file), "\(command): \(result)")
            #expect(result.stderr.contains("symbolic link"), "\(command): \(result)")
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(HostileCommand.snapshot(scratch.data) == before)
    }

    @Test func aKilledProcesssTemporaryIsRemovedAtTheNextOpen() async throws {
        let scratch = try Scratch()
        try await HostileCommand.expectOK(try HostileCommand.run(["charge", "debrief"], data: scratch.data))
        let killed = try await HostileCommand.run(
            ["charge", "send"], data: scratch.data, environment: ["CREDIT_FAULT": "replace.before-rename"])
        #expect(killed.status != 0, "\(killed)")
        let left = HostileCommand.snapshot(scratch.data).keys.filter { $0.contains(".tmp-") }
        #expect(!left.isEmpty, "the kill left a temporary")
        try await HostileCommand.expectOK(try HostileCommand.run(["entries"], data: scratch.data))
        let after = HostileCommand.snapshot(scratch.data).keys.filter { $0.contains(".tmp-") }
        #expect(after.isEmpty, "\(after)")
    }
}

/// Running the binary as root or as `nobody`, and what a data directory holds.
enum HostileCommand {
    static var canSwitchUsers: Bool {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            let binary = Credit.binary
        else { return false }
        return othersMayEnter(every: (binary as NSString).deletingLastPathComponent)
    }

    /// Whether `nobody` may reach the binaries in `folder`: it and every folder above it searchable by others (a
    /// checkout inside a folder of root's own, such as `mktemp -d`'s, is not, and `nobody` could not start them).
    static func othersMayEnter(every folder: String) -> Bool {
        var folder = folder
        while folder.count > 1 {
            var info = stat()
            guard stat(folder, &info) == 0, info.st_mode & S_IXOTH != 0 else { return false }
            folder = (folder as NSString).deletingLastPathComponent
        }
        return true
    }

    static func environment(_ home: String) -> [String: String] {
        [
            "PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "NO_COLOR": "1", "HOME": home,
            "CREDIT_NOW": "2026-11-29T12:00:00.000Z",
        ]
    }

    static func run(
        _ arguments: [String], data: String, asNobody: Bool = false, environment extra: [String: String] = [:]
    ) async throws -> ProcessResult {
        let binary = try Credit.requireBinary()
        var environment = environment((data as NSString).deletingLastPathComponent)
        for (name, value) in extra { environment[name] = value }
        let command = ["--data-dir", data] + arguments
        if asNobody {
            return try await ChildProcess.run(
                "/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", binary] + command,
                environment: environment, timeout: 120)
        }
        return try await ChildProcess.run(binary, command, environment: environment, timeout: 120)
    }

    static func expectOK(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try #require(result.succeeded, "\(result)", sourceLocation: sourceLocation)
    }

    static func ledgerFile(_ data: String) throws -> String {
        let device = try String(contentsOfFile: data + "/device", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return data + "/ledger/" + device + ".jsonl"
    }

    static func snapshot(_ root: String) -> [String: String] { DirectorySnapshot.take(root) }
}
