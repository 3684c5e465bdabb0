import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The mock store rows: catalogue requests per second under `wrk` against nginx serving the same bytes, and
/// purchase + finish cycles per second from eight clients of our own.
struct StoreBenchmarks {
    let options: BenchOptions
    let work: String

    /// Starts `mockstore` on a free port; returns its pid and base URL.
    func startStore() throws -> (pid: pid_t, port: UInt16) {
        guard let mockstore = options.mockstore else {
            throw BenchError("the mockstore binary is not beside credit-bench")
        }
        let data = work + "/mockstore-data"
        let started = try Measure.start(
            mockstore, ["--host", "127.0.0.1", "--port", "0", "--catalogue", options.catalogue, "--data", data],
            errorLog: work + "/mockstore.log")
        defer { close(started.output) }
        guard let line = Measure.readLine(from: started.output, timeout: 30), let colon = line.lastIndex(of: ":"),
            let port = UInt16(line[line.index(after: colon)...])
        else {
            Measure.stop(started.pid)
            throw BenchError("mockstore did not say where it listens (see \(work)/mockstore.log)")
        }
        return (started.pid, port)
    }

    /// Catalogue requests per second, 8 connections, against nginx serving the same response body as a file.
    func catalogue(into table: inout ResultTable) throws {
        let what = "mock store: catalogue requests/s, 8 connections (wrk)"
        let target = ">= half the baseline"
        guard let wrk = Measure.which("wrk") else {
            table.add(.skipped(what, target: target, reason: "wrk is not installed"))
            return
        }
        guard let nginx = Measure.which("nginx") else {
            table.add(.skipped(what, target: target, reason: "nginx is not installed"))
            return
        }
        let store = try startStore()
        defer { Measure.stop(store.pid, signal: SIGTERM) }
        let path = "/storekit/v1/products?ids=ai.voicedebrief.app.credit.500,ai.voicedebrief.app.credit.1000"
        var client = try HTTPClient(port: store.port)
        let response = try client.request("GET", path)
        guard response.status == 200, response.body.count > 2 else {
            throw BenchError("the catalogue request failed: \(response.status)")
        }
        let storeRate = try runWrk(wrk, url: "http://127.0.0.1:\(store.port)\(path)")

        // nginx, on a free port, serving the same bytes with the same content type.
        let root = work + "/nginx"
        try LedgerData.makeDirectory(root)
        try LedgerData.makeDirectory(root + "/www")
        try LedgerData.writeFile(root + "/www/products.json", response.body)
        // nginx's workers run as another user (www-data) when started by root: let them reach the file.
        chmod(work, 0o711)
        chmod(root, 0o755)
        chmod(root + "/www", 0o755)
        chmod(root + "/www/products.json", 0o644)
        guard let port = Measure.freePort() else { throw BenchError("no free port for nginx") }
        let configuration = """
            worker_processes auto;
            daemon off;
            pid \(root)/nginx.pid;
            error_log \(root)/error.log warn;
            events { worker_connections 1024; }
            http {
                access_log off;
                client_body_temp_path \(root)/body;
                proxy_temp_path \(root)/proxy;
                fastcgi_temp_path \(root)/fastcgi;
                server {
                    listen 127.0.0.1:\(port);
                    root \(root)/www;
                    location / { default_type application/json; }
                }
            }
            """
        try LedgerData.writeFile(root + "/nginx.conf", Array(configuration.utf8))
        let server = try Measure.start(nginx, ["-p", root, "-c", root + "/nginx.conf"], errorLog: root + "/stderr.log")
        close(server.output)
        defer { Measure.stop(server.pid, signal: SIGQUIT) }
        var nginxClient: HTTPClient?
        let deadline = Measure.now() + 10
        while nginxClient == nil && Measure.now() < deadline {
            nginxClient = try? HTTPClient(port: port)
            if nginxClient == nil { usleep(50_000) }
        }
        guard var check = nginxClient, let served = try? check.request("GET", "/products.json"), served.status == 200,
            served.body == response.body
        else {
            throw BenchError("nginx did not serve the file (see \(root)/error.log)")
        }
        let nginxRate = try runWrk(wrk, url: "http://127.0.0.1:\(port)/products.json")
        table.add(
            ResultRow(
                what: what, figure: "\(Format.number(storeRate)) requests/s (\(response.body.count)-byte body)",
                target: target,
                baseline: "nginx static file \(Format.number(nginxRate)) requests/s",
                ratio: Format.ratio(storeRate, nginxRate),
                met: Format.yes(storeRate >= nginxRate / 2)))
    }

    private func runWrk(_ wrk: String, url: String) throws -> Double {
        let run = try Measure.run(wrk, ["-t2", "-c8", "-d\(options.httpSeconds)s", url])
        guard run.status == 0,
            let line = run.output.split(separator: "\n").first(where: { $0.hasPrefix("Requests/sec:") }),
            let rate = Double(line.dropFirst("Requests/sec:".count).trimmingCharacters(in: .whitespaces))
        else {
            throw BenchError("wrk failed: \(run.output)")
        }
        if let errors = run.output.split(separator: "\n").first(where: {
            $0.contains("Non-2xx") || $0.contains("Socket errors")
        }) {
            log("  wrk: \(errors)")
        }
        return rate
    }

    /// Purchase + finish cycles per second: eight clients, each on its own keep-alive connection, each cycle a
    /// purchase (the store records and signs a transaction) and the finish of that transaction.
    func purchases(into table: inout ResultTable) throws {
        let store = try startStore()
        defer { Measure.stop(store.pid, signal: SIGTERM) }
        let clients = 8
        let seconds = Double(options.httpSeconds)
        let counter = CycleCounter()
        let port = store.port
        var threads: [Thread] = []
        let start = Measure.now()
        let deadline = start + seconds
        for _ in 0..<clients {
            let thread = Thread {
                do {
                    var client = try HTTPClient(port: port)
                    while Measure.now() < deadline {
                        let bought = try client.request(
                            "POST", "/storekit/v1/purchases",
                            body: Array(#"{"productId":"ai.voicedebrief.app.credit.500"}"#.utf8))
                        guard bought.status == 200, let id = StoreBenchmarks.transactionID(in: bought.body) else {
                            throw BenchError(
                                "purchase answered \(bought.status): \(String(decoding: bought.body, as: UTF8.self))")
                        }
                        let finished = try client.request("POST", "/storekit/v1/transactions/\(id)/finish", body: [])
                        guard finished.status == 200 else { throw BenchError("finish answered \(finished.status)") }
                        counter.add()
                    }
                } catch {
                    counter.fail("\(error)")
                }
                counter.done()
            }
            threads.append(thread)
            thread.start()
        }
        counter.waitUntilDone(count: clients)
        let elapsed = Measure.now() - start
        if let failure = counter.failure { throw BenchError("a purchase client failed: \(failure)") }
        let rate = Double(counter.cycles) / elapsed
        table.add(
            ResultRow(
                what: "mock store: purchase + finish cycles/s, 8 clients",
                figure:
                    "\(Format.number(rate)) cycles/s (\(counter.cycles) in \(Format.number(elapsed, decimals: 1)) s)",
                target: "report, >= 1,000/s", met: Format.yes(rate >= 1_000)))
    }

    /// The `transactionId` inside the signed transaction of a purchase response.
    static func transactionID(in body: [UInt8]) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let jws = object["signedTransaction"] as? String
        else { return nil }
        let parts = jws.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var payload = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while payload.count % 4 != 0 { payload += "=" }
        guard let data = Data(base64Encoded: payload),
            let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        if let id = claims["transactionId"] as? String { return id }
        return (claims["transactionId"] as? NSNumber)?.stringValue
    }
}

/// The purchase clients' shared tally. `@unchecked Sendable`: every field is read and written under `lock`.
final class CycleCounter: @unchecked Sendable {
    private let lock = NSCondition()
    private var count = 0
    private var finished = 0
    private(set) var failure: String?

    var cycles: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    func add() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    func fail(_ reason: String) {
        lock.lock()
        if failure == nil { failure = reason }
        lock.unlock()
    }

    func done() {
        lock.lock()
        finished += 1
        lock.broadcast()
        lock.unlock()
    }

    func waitUntilDone(count: Int) {
        lock.lock()
        while finished < count { lock.wait() }
        lock.unlock()
    }
}

/// A minimal HTTP/1.1 client on one keep-alive TCP connection to 127.0.0.1: enough for the bench, and light, so
/// the clients take little of the CPU the server needs.
struct HTTPClient {
    struct Response {
        var status: Int
        var body: [UInt8]
    }

    private let fd: Int32
    private var buffer: [UInt8] = []
    private let port: UInt16

    init(port: UInt16) throws {
        self.port = port
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket failed") }
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
            throw BenchError("cannot connect to 127.0.0.1:\(port)")
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    mutating func request(_ method: String, _ path: String, body: [UInt8]? = nil) throws -> Response {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        head += "\r\n"
        let bytes = Array(head.utf8) + (body ?? [])
        try bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let count = send(fd, raw.baseAddress! + done, raw.count - done, Int32(MSG_NOSIGNAL))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw BenchError("send failed") }
                done += count
            }
        }
        // Headers, then Content-Length bytes of body.
        var headerEnd: Int?
        while headerEnd == nil {
            headerEnd = StoreBenchmarks.find([13, 10, 13, 10], in: buffer)
            if headerEnd == nil { try receive() }
        }
        let headers = String(decoding: buffer[0..<headerEnd!], as: UTF8.self)
        let lines = headers.split(separator: "\r\n")
        guard let statusLine = lines.first, statusLine.split(separator: " ").count >= 2,
            let status = Int(statusLine.split(separator: " ")[1])
        else { throw BenchError("bad response: \(headers)") }
        var length = 0
        for line in lines.dropFirst() where line.lowercased().hasPrefix("content-length:") {
            length = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
        }
        let bodyStart = headerEnd! + 4
        while buffer.count < bodyStart + length { try receive() }
        let responseBody = Array(buffer[bodyStart..<(bodyStart + length)])
        buffer.removeFirst(bodyStart + length)
        return Response(status: status, body: responseBody)
    }

    private mutating func receive() throws {
        var chunk = [UInt8](repeating: 0, count: 16384)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
        if count < 0 && errno == EINTR { return }
        guard count > 0 else { throw BenchError("the connection closed") }
        buffer.append(contentsOf: chunk[0..<count])
    }
}

extension StoreBenchmarks {
    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if Array(haystack[index..<(index + needle.count)]) == needle { return index }
        }
        return nil
    }
}
