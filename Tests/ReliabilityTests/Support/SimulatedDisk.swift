import DurableFiles
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thrown by every call after the simulated power failed.
struct PowerLoss: Error, CustomStringConvertible {
    var operation: Int
    var description: String { "the power failed at file operation \(operation)" }
}

/// Thrown by every call after the simulated process was killed (SIGKILL: nothing after the point runs, not even its
/// error handling; what it wrote stays in the page cache for the next process).
struct ProcessKilled: Error, CustomStringConvertible {
    var operation: Int
    var description: String { "the process was killed at file operation \(operation)" }
}

/// A file layer over a real directory that remembers what a disk would still hold after a power loss, and fails
/// calls on demand.
///
/// Every call passes through to the real file system (so reads see what a kernel's page cache would show), while the
/// layer keeps, beside it, the durable state: the content of each file as of its last `fsync`/`fdatasync`, and the
/// entries of each directory as of its last directory `fsync`. A new file's name, a rename and a new directory are
/// durable only once their directory is synced; unsynced data is lost. ``powerFail(unsynced:)`` rewrites the real
/// directory to that durable state (LazyFS's `clear-cache`, in user space).
///
/// Faults: ``powerLossAt`` stops the world before the n-th operation (every later call throws ``PowerLoss`` and
/// changes nothing), and ``inject`` can fail any call with an errno or cut a write short.
final class SimulatedDisk: FileSystem {
    enum Operation: String, Sendable {
        case open, write, truncate, syncData, sync, rename, removeFile, makeDirectory, syncDirectory
    }

    /// One call, as ``inject`` sees it.
    struct Call {
        var operation: Operation
        var path: String
        /// Its number among all counted calls, from 0.
        var index: Int
        /// Bytes asked to be written (writes only).
        var count: Int = 0
    }

    /// What ``inject`` makes of a call.
    enum Response {
        case proceed
        /// Fails with this errno, changing nothing.
        case fail(Int32)
        /// Writes only this many bytes (writes only) and returns that count.
        case writeOnly(Int)
    }

    /// What becomes of data written but never synced when the power fails.
    enum Unsynced: Sendable, CustomStringConvertible {
        /// Gone (what `fsync` guarantees, and LazyFS's clear-cache).
        case lost
        /// The first `fraction` of the bytes appended since the last sync reached the disk.
        case partlyWritten(fraction: Double)
        /// The file grew but the data did not reach the disk: zeros (ALICE's size-atomicity failure).
        case zeroFilled

        var description: String {
            switch self {
            case .lost: return "unsynced data lost"
            case .partlyWritten(let fraction): return "unsynced data \(Int(fraction * 100))% written"
            case .zeroFilled: return "unsynced appends zero-filled"
            }
        }
    }

    let root: String
    /// Counted calls so far.
    private(set) var operations = 0
    /// The power fails just before this counted call (nil: never).
    var powerLossAt: Int?
    private(set) var isDead = false
    /// The process is killed just before this counted call (nil: never); ``restartProcess()`` starts the next one.
    var killAt: Int?
    private(set) var processIsDead = false
    /// Fails or shortens calls.
    var inject: ((Call) -> Response)?
    /// Every counted call, for failure messages.
    private(set) var trace: [String] = []
    /// Faults `inject` actually made.
    private(set) var injected = 0

    private var nextInode = 0
    private var durableContent: [Int: [UInt8]] = [:]
    private var volatileNames: [String: Int] = [:]
    private var durableNames: [String: Int] = [:]
    private var volatileDirectories: Set<String> = []
    private var durableDirectories: Set<String> = []
    private var descriptors: [Int32: Int] = [:]

    /// Takes everything under `root` as it is now as durable.
    init(root: String) {
        self.root = root
        snapshot(root)
    }

    private func snapshot(_ directory: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        volatileDirectories.insert(directory)
        durableDirectories.insert(directory)
        for name in names {
            let path = directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                snapshot(path)
            } else if info.st_mode & S_IFMT == S_IFREG {
                adopt(path)
            }
        }
    }

    /// Takes a file the layer has not seen (made before it, or outside it) as durable as it is.
    @discardableResult
    private func adopt(_ path: String) -> Int {
        let inode = nextInode
        nextInode += 1
        durableContent[inode] = readFile(path) ?? []
        volatileNames[path] = inode
        durableNames[path] = inode
        return inode
    }

    private func readFile(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }

    private func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// Counts a call; fails it when the power is out, or goes out now; asks ``inject``.
    private func begin(_ operation: Operation, _ path: String, count: Int = 0) throws -> Response {
        if isDead { throw PowerLoss(operation: operations) }
        if processIsDead { throw ProcessKilled(operation: operations) }
        if let killAt, operations == killAt {
            processIsDead = true
            self.killAt = nil
            trace.append(
                "\(operations): (killed before \(operation.rawValue) \(path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path))"
            )
            throw ProcessKilled(operation: operations)
        }
        let index = operations
        operations += 1
        trace.append(
            "\(index): \(operation.rawValue) \(path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path)\(count > 0 ? " (\(count) bytes)" : "")"
        )
        if let powerLossAt, index >= powerLossAt {
            isDead = true
            throw PowerLoss(operation: index)
        }
        let response = inject?(Call(operation: operation, path: path, index: index, count: count)) ?? .proceed
        if case .proceed = response {} else { injected += 1 }
        return response
    }

    private func failure(_ path: String, _ operation: FileError.Operation, _ code: Int32) -> FileError {
        FileError(path: path, operation: operation, errno: code)
    }

    // MARK: FileSystem

    func open(_ path: String, _ mode: OpenMode, permissions: mode_t) throws -> Int32 {
        if case .fail(let code) = try begin(.open, path) { throw failure(path, .open, code) }
        let existed = FileManager.default.fileExists(atPath: path)
        if existed && volatileNames[path] == nil { adopt(path) }
        let flags: Int32
        switch mode {
        case .append: flags = O_WRONLY | O_APPEND | O_CLOEXEC
        case .createOrAppend: flags = O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC
        case .replace: flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC
        }
        let fd = systemOpen(path, flags, permissions)
        guard fd >= 0 else { throw failure(path, .open, errno) }
        if !existed {
            let inode = nextInode
            nextInode += 1
            durableContent[inode] = []
            volatileNames[path] = inode
        }
        descriptors[fd] = volatileNames[path]
        return fd
    }

    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws -> Int {
        var count = bytes.count
        switch try begin(.write, path, count: bytes.count) {
        case .proceed: break
        case .fail(let code): throw failure(path, .write, code)
        case .writeOnly(let limit): count = max(0, min(limit, bytes.count))
        }
        guard count > 0 else { return 0 }
        let written = systemWrite(descriptor, bytes.baseAddress!, count)
        guard written >= 0 else { throw failure(path, .write, errno) }
        return written
    }

    func size(_ descriptor: Int32, path: String) throws -> Int64 {
        if isDead { throw PowerLoss(operation: operations) }
        if processIsDead { throw ProcessKilled(operation: operations) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure(path, .fstat, errno) }
        return Int64(info.st_size)
    }

    func truncate(_ descriptor: Int32, to length: Int64, path: String) throws {
        if case .fail(let code) = try begin(.truncate, path) { throw failure(path, .truncate, code) }
        guard ftruncate(descriptor, off_t(length)) == 0 else { throw failure(path, .truncate, errno) }
    }

    func syncData(_ descriptor: Int32, path: String) throws {
        if case .fail(let code) = try begin(.syncData, path) { throw failure(path, .fdatasync, code) }
        persist(descriptor)
    }

    func sync(_ descriptor: Int32, path: String) throws {
        if case .fail(let code) = try begin(.sync, path) { throw failure(path, .fsync, code) }
        persist(descriptor)
    }

    /// What the descriptor's file holds now becomes its durable content.
    private func persist(_ descriptor: Int32) {
        guard let inode = descriptors[descriptor] else { return }
        durableContent[inode] = readFile("/proc/self/fd/\(descriptor)") ?? []
    }

    func close(_ descriptor: Int32) {
        // Only what this layer opened and has not closed: closing a number twice would close whatever another
        // test in this process opened under it since.
        guard descriptors.removeValue(forKey: descriptor) != nil else { return }
        _ = systemClose(descriptor)
    }

    func rename(_ source: String, to target: String) throws {
        if case .fail(let code) = try begin(.rename, target) { throw failure(target, .rename, code) }
        if volatileNames[source] == nil && FileManager.default.fileExists(atPath: source) { adopt(source) }
        if volatileNames[target] == nil && FileManager.default.fileExists(atPath: target) { adopt(target) }
        guard systemRename(source, target) == 0 else { throw failure(target, .rename, errno) }
        volatileNames[target] = volatileNames[source]
        volatileNames[source] = nil
    }

    func linkNew(_ source: String, as target: String) throws {
        if case .fail(let code) = try begin(.rename, target) { throw failure(target, .link, code) }
        if volatileNames[source] == nil && FileManager.default.fileExists(atPath: source) { adopt(source) }
        guard link(source, target) == 0 else { throw failure(target, .link, errno) }
        volatileNames[target] = volatileNames[source]
    }

    func removeFile(_ path: String) {
        guard let response = try? begin(.removeFile, path), case .proceed = response else { return }
        if volatileNames[path] == nil && FileManager.default.fileExists(atPath: path) { adopt(path) }
        _ = unlink(path)
        volatileNames[path] = nil
    }

    func makeDirectory(_ path: String, permissions: mode_t) throws {
        if case .fail(let code) = try begin(.makeDirectory, path) { throw failure(path, .mkdir, code) }
        if mkdir(path, permissions) != 0 {
            guard errno == EEXIST else { throw failure(path, .mkdir, errno) }
            if !volatileDirectories.contains(path) {
                volatileDirectories.insert(path)
                durableDirectories.insert(path)
            }
            return
        }
        volatileDirectories.insert(path)
    }

    func syncDirectory(_ path: String) throws {
        if case .fail(let code) = try begin(.syncDirectory, path) { throw failure(path, .fsyncDirectory, code) }
        for (name, inode) in volatileNames where parent(name) == path { durableNames[name] = inode }
        for name in durableNames.keys where parent(name) == path && volatileNames[name] == nil {
            durableNames[name] = nil
        }
        for directory in volatileDirectories where parent(directory) == path { durableDirectories.insert(directory) }
    }

    /// The next process starts; the killed one's unsynced writes are still in the page cache. (Its descriptors are
    /// left to its ledger object to close: it is never used again.)
    func restartProcess() {
        processIsDead = false
    }

    // MARK: the power failure

    /// Whether `directory` and every directory above it (up to the root) would still be there.
    private func isDurableDirectory(_ directory: String) -> Bool {
        if directory == root || !directory.hasPrefix(root + "/") { return true }
        if volatileDirectories.contains(directory) && !durableDirectories.contains(directory) { return false }
        return isDurableDirectory(parent(directory))
    }

    /// Cuts the power now (if it is not out already) and rewrites the real directory to what the disk holds: each
    /// file the layer knows as of its last sync and its directory's last sync; `unsynced` says what became of data
    /// written since. Files made outside the layer (the keys, the lock file) are left as they are.
    func powerFail(unsynced: Unsynced = .lost) {
        isDead = true
        // What each file holds in the page cache now, for the unsynced variants.
        var cached: [Int: [UInt8]] = [:]
        for (path, inode) in volatileNames { cached[inode] = readFile(path) }
        let paths = Set(volatileNames.keys).union(durableNames.keys)
        // Files first, then directories deepest first.
        for path in paths {
            _ = unlink(path)
            guard let inode = durableNames[path], isDurableDirectory(parent(path)) else { continue }
            var content = durableContent[inode] ?? []
            if let now = cached[inode], now.count > content.count, now.starts(with: content) {
                let extra = now.count - content.count
                switch unsynced {
                case .lost: break
                case .partlyWritten(let fraction):
                    content += now[content.count..<(content.count + Int(Double(extra) * fraction))]
                case .zeroFilled:
                    content += [UInt8](repeating: 0, count: extra)
                }
            }
            mkdirs(parent(path))
            _ = FileManager.default.createFile(
                atPath: path, contents: Data(content), attributes: [.posixPermissions: 0o600])
        }
        for directory in volatileDirectories.union(durableDirectories).sorted(by: { $0.count > $1.count }) {
            if !isDurableDirectory(directory) { try? FileManager.default.removeItem(atPath: directory) }
        }
    }

    private func mkdirs(_ directory: String) {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
}

// The C calls under names the disk's methods do not shadow (Glibc and Darwin alike).
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
private func systemRename(_ source: String, _ target: String) -> Int32 { rename(source, target) }
