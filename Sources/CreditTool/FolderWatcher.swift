import Dispatch
import Foundation
import Platform

/// Waits for a change in a few folders, or for SIGINT/SIGTERM: inotify on Linux, a poll every `interval` elsewhere
/// (and, on Linux too, as a net: a folder that is not there yet, or a change a sync tool made by a rename inotify
/// did not see, is still found). Owns its descriptors and closes them in `deinit`.
final class FolderWatcher {
    /// Why ``wait()`` returned.
    enum Wake { case changed, timedOut, stopped }

    private let paths: [String]
    private let interval: Duration
    private var notify: Int32 = -1
    /// A pipe the signal handlers write into, so a signal wakes the wait at once.
    private var signalPipe: [Int32] = [-1, -1]
    private var signalSources: [any DispatchSourceSignal] = []

    /// The quiet that ends a burst of changes, and the longest a burst may put a sync off: a folder that never goes
    /// quiet (a sync tool's temporary file rewritten every 50 ms) is synced at least this often.
    static let quiet: Int32 = 100
    static let longestSettle: Int32 = 1_000

    /// Watches `paths`, looking at least every `interval`; with `stopsOnSignals`, SIGINT and SIGTERM end the wait
    /// (`--watch`, where the `credit` process blocked them from its start, see ``StopSignals``; a test in process
    /// watches without them).
    init(paths: [String], interval: Duration, stopsOnSignals: Bool = true) {
        self.paths = paths
        self.interval = interval
        #if os(Linux)
            notify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        #endif
        if pipe(&signalPipe) == 0 {
            for fd in signalPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        let writeEnd = signalPipe[1]
        for number in stopsOnSignals ? [SIGINT, SIGTERM] : [] {
            // Blocked since the process started (``StopSignals``), a signal may be pending already: ignoring it
            // now would discard it, and the signal source takes it as it is. Not blocked (a watch started some
            // other way), it is ignored, so that a thread that does not block it is not killed by it.
            if !StopSignals.isBlocked(number) { signal(number, SIG_IGN) }
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                var byte: UInt8 = 1
                _ = write(writeEnd, &byte, 1)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    deinit {
        for source in signalSources { source.cancel() }
        if notify >= 0 { close(notify) }
        for fd in signalPipe where fd >= 0 { close(fd) }
    }

    /// Waits until something changes in the folders, `interval` passes, or a stop signal comes. A burst of changes
    /// (a sync tool writing a file in pieces) wakes it once, when it has been quiet for ``quiet`` milliseconds, or
    /// after ``longestSettle`` however busy the folder stays.
    func wait() -> Wake {
        addWatches()
        let parts = interval.components
        let milliseconds = Int32(clamping: parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000)
        var woke = poll(timeout: milliseconds)
        guard woke == .changed else { return woke }
        let settled = ContinuousClock.now + .milliseconds(Self.longestSettle)
        while woke == .changed {
            let left = settled - ContinuousClock.now
            guard left > .zero else { return .changed }
            let leftMilliseconds = Int32(
                clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            woke = poll(timeout: min(Self.quiet, max(1, leftMilliseconds)))
        }
        return woke == .stopped ? .stopped : .changed
    }

    private func poll(timeout: Int32) -> Wake {
        var fds = [pollfd(fd: signalPipe[0], events: Int16(POLLIN), revents: 0)]
        if notify >= 0 { fds.append(pollfd(fd: notify, events: Int16(POLLIN), revents: 0)) }
        let ready = systemPoll(&fds, timeout)
        guard ready > 0 else { return .timedOut }
        if fds[0].revents != 0 { return .stopped }
        drain(notify)
        return .changed
    }

    /// Watches each folder that is there (again, after one was removed and made anew).
    private func addWatches() {
        #if os(Linux)
            guard notify >= 0 else { return }
            let mask = UInt32(
                IN_CREATE | IN_MODIFY | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CLOSE_WRITE | IN_ATTRIB)
            for path in paths {
                _ = inotify_add_watch(notify, path, mask | UInt32(IN_ONLYDIR))
            }
        #endif
    }

    private func drain(_ fd: Int32) {
        guard fd >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 16384)
        while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
    }
}

/// `poll(2)`, outside the type whose method has the same name.
private func systemPoll(_ fds: inout [pollfd], _ timeout: Int32) -> Int32 {
    poll(&fds, nfds_t(fds.count), timeout)
}
