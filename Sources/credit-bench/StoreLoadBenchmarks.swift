import Foundation
import MockStoreHTTP
import Platform
import StoreWire

/// The mock store rows of a whole CI suite's load: start to listening (`--ephemeral` and a fresh data directory)
/// beside `python3 -c 'print(1)'`, and a purchase answered while 100 slow and 1,000 idle connections are open.
extension StoreBenchmarks {
    /// Seconds from spawning `mockstore arguments` to its listening line; the store is stopped after.
    func secondsToListening(_ arguments: [String]) throws -> Double {
        guard let mockstore = options.mockstore else {
            throw BenchError("the mockstore binary is not beside credit-bench")
        }
        let start = Measure.now()
        let started = try Measure.start(
            mockstore, ["--port", "0", "--catalogue", options.catalogue] + arguments, errorLog: work + "/start.log")
        defer {
            close(started.output)
            Measure.stop(started.pid)
        }
        guard let line = Measure.readLine(from: started.output, timeout: 30), line.contains("listening on") else {
            throw BenchError("mockstore did not say where it listens (see \(work)/start.log)")
        }
        return Measure.now() - start
    }

    /// Start to listening, interleaved with the Python baseline, median of `processRuns` each.
    func startToListening(into table: inout ResultTable) throws {
        var ephemeral: [Double] = []
        var onDisk: [Double] = []
        var restart: [Double] = []
        var python: [Double] = []
        for run in 0..<options.processRuns {
            ephemeral.append(try secondsToListening(["--ephemeral"]))
            let data = work + "/start-data-\(run)"
            onDisk.append(try secondsToListening(["--data", data]))
            // The same directory again: its CA read back, its database opened, as a restart does.
            restart.append(try secondsToListening(["--data", data]))
            LedgerData.remove(data)
            if let interpreter = options.python {
                let finished = try Measure.run(interpreter, ["-c", "print(1)"])
                if finished.status == 0 { python.append(finished.wall) }
            }
        }
        let baseline = python.isEmpty ? nil : Measure.median(python)
        let baselineText = baseline.map { "python3 -c 'print(1)' \(Format.duration($0))" } ?? "python3 not found"
        for (what, times, target) in [
            ("mock store: start to listening, --ephemeral", ephemeral, 0.020),
            ("mock store: start to listening, a fresh data directory", onDisk, Double?.none),
            ("mock store: start to listening, that data directory again [extra row]", restart, Double?.none),
        ] as [(String, [Double], Double?)] {
            let median = Measure.median(times)
            table.add(
                ResultRow(
                    what: what,
                    figure:
                        "\(Format.duration(median)) median of \(times.count) (max \(Format.duration(times.max() ?? 0)))",
                    target: target.map { "<= \(Format.duration($0))" } ?? "report", baseline: baselineText,
                    ratio: baseline.map { Format.ratio(median, $0) } ?? "-",
                    met: target.map { Format.yes(median <= $0) } ?? "-"))
        }
    }

    /// Purchase latency on a new connection with nothing else open, then with 100 slow clients (a byte a second,
    /// half in the headers, half in the body) and 1,000 idle connections open.
    func purchaseUnderLoad(into table: inout ResultTable) throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let store = try startStore()
        defer { Measure.stop(store.pid, signal: SIGTERM) }
        let purchases = options.quick ? 10 : 50
        let quiet = try purchaseTimes(port: store.port, count: purchases)

        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        for _ in 0..<1_000 { sockets.append(try Self.openConnection(port: store.port)) }
        var slow: [Int32] = []
        for index in 0..<100 {
            let socket = try Self.openConnection(port: store.port)
            sockets.append(socket)
            slow.append(socket)
            Self.sendText(
                socket,
                index.isMultiple(of: 2)
                    ? "POST \(DeviceAPI.purchase.path()) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
                    : "POST \(DeviceAPI.purchase.path()) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{")
        }
        var loaded: [Double] = []
        var lastDrip = 0.0
        for _ in 0..<purchases {
            if Measure.now() - lastDrip >= 1 {
                for socket in slow { Self.sendText(socket, "x") }
                lastDrip = Measure.now()
            }
            loaded += try purchaseTimes(port: store.port, count: 1)
        }
        let quietMedian = Measure.median(quiet)
        let worst = loaded.max() ?? 0
        table.add(
            ResultRow(
                what: "mock store: a purchase, 100 slow + 1,000 idle connections open",
                figure:
                    "\(Format.duration(Measure.median(loaded))) median, \(Format.duration(worst)) max of \(loaded.count)",
                target: "<= 1 s", baseline: "nothing else open \(Format.duration(quietMedian)) median",
                ratio: Format.ratio(Measure.median(loaded), quietMedian), met: Format.yes(worst <= 1)))
    }

    /// Seconds each of `count` purchases took, each on a new connection (as a test's first request is).
    private func purchaseTimes(port: UInt16, count: Int) throws -> [Double] {
        let body = try HTTPResponse.encode(PurchaseRequestBody(productId: "ai.voicedebrief.app.credit.500"))
        return try (0..<count).map { _ in
            let start = Measure.now()
            let client = try LoopbackClient(port: port)
            let bought = try client.request(DeviceAPI.purchase, body: body)
            guard bought.status == 200 else { throw BenchError("a purchase answered \(bought.status)") }
            return Measure.now() - start
        }
    }

    private static func openConnection(port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Platform.streamSocket, 0)
        guard fd >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        Platform.keepSignalPipeQuiet(fd)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw BenchError("connect: \(String(cString: strerror(errno)))")
        }
        return fd
    }

    private static func sendText(_ socket: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Platform.sendWithoutSignal) }
    }
}
