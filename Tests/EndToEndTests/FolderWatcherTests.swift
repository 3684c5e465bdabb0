import CreditLedger
import DurableFiles
import Foundation
import TestSupport
import Testing

@testable import CreditTool

/// `credit sync --watch` waits on `FolderWatcher` (issue 35 item 3): a folder that never goes quiet (a sync tool's
/// hidden temporary file rewritten every 50 ms) must not put the next sync off for as long as it stays busy.
@Suite struct FolderWatcherTests {
    /// Rewrites a file every 50 ms on a thread of its own until stopped.
    private final class BusyWriter: @unchecked Sendable {
        private let lock = NSLock()
        private var running = true
        private let finished = DispatchSemaphore(value: 0)

        init(_ path: String) {
            Thread { [self] in
                var count = 0
                while lock.withLock({ running }) {
                    count += 1
                    FileManager.default.createFile(atPath: path, contents: Data("\(count)".utf8))
                    pace(seconds: 0.05)
                }
                finished.signal()
            }.start()
        }

        func stop() {
            lock.withLock { running = false }
            finished.wait()
        }
    }

    /// The watcher, handed to the thread that waits on it.
    private final class Watching: @unchecked Sendable {
        let watcher: FolderWatcher
        init(_ watcher: FolderWatcher) { self.watcher = watcher }
    }

    @Test func aFolderThatNeverGoesQuietStillWakesTheWatchWithinItsLongestSettle() async throws {
        let directory = try TemporaryDirectory("folder-watcher")
        let watching = Watching(
            FolderWatcher(paths: [directory.path], interval: .seconds(3_600), stopsOnSignals: false))
        let writer = BusyWriter(directory.file(".sync-tool.tmp"))
        defer { writer.stop() }
        let woke = try await withinTimeLimit(seconds: 60) {
            await withCheckedContinuation { (done: CheckedContinuation<FolderWatcher.Wake, Never>) in
                Thread { done.resume(returning: watching.watcher.wait()) }.start()
            }
        }
        #expect(woke == .changed, "the change is reported while the folder is still busy")
    }
}

/// Issue 35 item 2: a folder that goes away partway through a watch's round (a sync tool replacing it, a disk
/// unmounted) is waited out, said once, as one gone before the round is; anything else still stops the watch.
@Suite struct WatchWaitsOutAFolderGoneMidRoundTests {
    let folder = SyncFolder("/sync/vault")

    @Test(arguments: [
        FileError(path: "/sync/vault/credit/ledger", operation: .opendir, errno: ENOENT),
        FileError(path: "/sync/vault/credit/heads/.d.json.tmp-0123456789abcdef", operation: .create, errno: ENOENT),
        FileError(path: "/sync/vault/credit", operation: .mkdir, errno: ENOTDIR),
        FileError(path: "/sync/vault", operation: .opendir, errno: ENOENT),
    ])
    func aFolderGoneMidRoundIsWaitedOut(_ error: FileError) {
        #expect(SyncCommand.waitedOut(error, folder) == .folderMissing(path: "/sync/vault"))
    }

    @Test func aFolderGoneBeforeTheRoundIsWaitedOutAsItWas() {
        #expect(SyncCommand.waitedOut(SyncError.folderMissing(path: "/sync/vault"), folder) != nil)
        #expect(SyncCommand.waitedOut(SyncError.notAFolder(path: "/sync/vault/credit", found: "a file"), folder) != nil)
    }

    /// A folder inside swapped for a link as a round opened it (`O_NOFOLLOW` refused it): waited out as one found
    /// before the round.
    @Test func aLinkFoundMidRoundIsWaitedOut() {
        let error = FileError(path: "/sync/vault/credit/heads", operation: .openDirectory, errno: ELOOP)
        #expect(
            SyncCommand.waitedOut(error, folder)
                == .notAFolder(path: "/sync/vault/credit/heads", found: "a symbolic link"))
    }

    @Test func anythingElseStopsTheWatch() {
        let failures: [any Error] = [
            FileError(path: "/sync/vault/credit/ledger", operation: .write, errno: ENOSPC),
            FileError(path: "/data/ledger/d.jsonl", operation: .open, errno: ENOENT),
            FileError(path: "/sync/vault-other/credit", operation: .opendir, errno: ENOENT),
            SyncError.unsigned, SyncError.readOnly(directory: "/data"),
        ]
        for failure in failures { #expect(SyncCommand.waitedOut(failure, folder) == nil, "\(failure)") }
    }
}
