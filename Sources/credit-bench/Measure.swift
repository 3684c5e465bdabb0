import Platform

/// Clocks, statistics and child processes for the bench.
enum Measure {
    /// Seconds on the monotonic clock.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// CPU seconds (user + system) this process has used.
    static func cpu() -> Double {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func seconds(_ value: timeval) -> Double { Double(value.tv_sec) + Double(value.tv_usec) / 1e6 }

    /// Peak resident memory of this process, in bytes: its own high-water mark (`VmHWM`) on Linux. Not
    /// `ru_maxrss`, which a process started by posix_spawn (a vfork) inherits from its parent: exec folds the
    /// parent's memory's high-water mark into it, so a child of a 400 MiB bench would report 400 MiB at least.
    static func peakResidentBytes() -> Int {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kib = Int(line.dropFirst(6).filter(\.isNumber))
        {
            return kib * 1024
        }
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss * 1024
    }

    /// Runs `body` once, returning its result with the wall and CPU seconds it took.
    static func time<T>(_ body: () throws -> T) rethrows -> (value: T, wall: Double, cpu: Double) {
        let cpu0 = cpu()
        let wall0 = now()
        let value = try body()
        return (value, now() - wall0, cpu() - cpu0)
    }

    static func median(_ values: [Double]) -> Double { percentile(values, 50) }

    /// The `p`th percentile (nearest rank) of `values`.
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[max(0, min(sorted.count - 1, rank))]
    }

    // MARK: child processes

    /// What a finished child did.
    struct Finished {
        var status: Int32
        var output: String
        var wall: Double
        /// The child's own CPU seconds and peak resident bytes, from `wait4`.
        var cpu: Double
        var peakResidentBytes: Int
    }

    /// Runs `path` with `arguments` to the end, its standard output captured (or thrown away), its standard error
    /// passed through; the wall time is from just before the spawn to just after the child is reaped.
    static func run(_ path: String, _ arguments: [String], environment: [String]? = nil, captureOutput: Bool = true)
        throws -> Finished
    {
        var pipeEnds: [Int32] = [-1, -1]
        if captureOutput { guard pipe(&pipeEnds) == 0 else { throw BenchError("pipe failed") } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if captureOutput {
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
            posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
            posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        }
        let start = now()
        let pid = try spawn(path, arguments, environment: environment, actions: &actions)
        var output: [UInt8] = []
        if captureOutput {
            close(pipeEnds[1])
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress!, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                output.append(contentsOf: buffer[0..<count])
            }
            close(pipeEnds[0])
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let wall = now() - start
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Finished(
            status: exitStatus, output: String(decoding: output, as: UTF8.self), wall: wall,
            cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime), peakResidentBytes: usage.ru_maxrss * 1024)
    }

    /// Starts `path` and leaves it running; its standard output goes to the returned descriptor (read it with
    /// ``readLine(from:timeout:)``), its standard error to `errorLog` (or through).
    static func start(_ path: String, _ arguments: [String], errorLog: String? = nil) throws -> (
        pid: pid_t, output: Int32
    ) {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw BenchError("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        if let errorLog {
            posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errorLog, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        let pid = try spawn(path, arguments, environment: nil, actions: &actions)
        close(pipeEnds[1])
        return (pid, pipeEnds[0])
    }

    /// A line from `fd`, waiting at most `timeout` seconds.
    static func readLine(from fd: Int32, timeout: Double) -> String? {
        var line: [UInt8] = []
        let deadline = now() + timeout
        while now() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(1, (deadline - now()) * 1000)))
            if ready <= 0 { continue }
            var byte: UInt8 = 0
            let count = read(fd, &byte, 1)
            if count <= 0 { return nil }
            if byte == 0x0A { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
        return nil
    }

    /// Stops a child started with ``start(_:_:errorLog:)``: `signal`, then SIGKILL if it has not ended after
    /// five seconds.
    static func stop(_ pid: pid_t, signal: Int32 = SIGTERM) {
        kill(pid, signal)
        let deadline = now() + 5
        var status: Int32 = 0
        while now() < deadline {
            if waitpid(pid, &status, WNOHANG) == pid { return }
            usleep(20_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
    }

    private static func spawn(
        _ path: String, _ arguments: [String], environment: [String]?, actions: inout posix_spawn_file_actions_t
    ) throws -> pid_t {
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status: Int32
        if let environment {
            let envp = environment.map { strdup($0) } + [nil]
            defer { envp.forEach { free($0) } }
            status = posix_spawn(&pid, path, &actions, nil, argv, envp)
        } else {
            status = posix_spawn(&pid, path, &actions, nil, argv, environ)
        }
        guard status == 0 else { throw BenchError("cannot start \(path): \(String(cString: strerror(status)))") }
        return pid
    }

    /// The full path of `name` found on PATH (and in /usr/sbin, /sbin), or nil.
    static func which(_ name: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let path = (getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin") + ":/usr/sbin:/sbin:/usr/local/sbin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago.
    static func freePort() -> UInt16? {
        let fd = socket(AF_INET, streamSocket, 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { return nil }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { return nil }
        return UInt16(bigEndian: address.sin_port)
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

// SOCK_STREAM is an enum on Glibc and an Int32 on Darwin.
private let streamSocket = Platform.streamSocket
