import Foundation
import MockStoreHTTP
import Platform
import StoreWire
import VoiceDebriefCredit

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
        let target = ">= 0.8x the baseline"
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
        // The request the credit screen makes: the app's packs.
        let path = DeviceAPI.products.target(.init(ids: VoiceDebriefStore.packs.credits.keys.sorted()))
        let client = try LoopbackClient(port: store.port)
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
        let check = try LoopbackClient(port: port)
        var served = try? check.request("GET", "/products.json")
        let deadline = Measure.now() + 10
        while served == nil && Measure.now() < deadline {
            usleep(50_000)
            served = try? check.request("GET", "/products.json")
        }
        guard let served, served.status == 200, served.body == response.body else {
            throw BenchError("nginx did not serve the file (see \(root)/error.log)")
        }
        let nginxRate = try runWrk(wrk, url: "http://127.0.0.1:\(port)/products.json")
        table.add(
            ResultRow(
                what: what, figure: "\(Format.number(storeRate)) requests/s (\(response.body.count)-byte body)",
                target: target,
                baseline: "nginx static file \(Format.number(nginxRate)) requests/s",
                ratio: Format.ratio(storeRate, nginxRate),
                met: Format.yes(storeRate >= nginxRate * 0.8)))
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
    @discardableResult
    func purchases(into table: inout ResultTable) throws -> Double {
        let store = try startStore()
        defer { Measure.stop(store.pid, signal: SIGTERM) }
        let clients = 8
        let seconds = Double(options.httpSeconds)
        let counter = CycleCounter()
        let port = store.port
        var threads: [Thread] = []
        let purchase = try HTTPResponse.encode(PurchaseRequestBody(productId: "ai.voicedebrief.app.credit.500"))
        let start = Measure.now()
        let deadline = start + seconds
        for _ in 0..<clients {
            let thread = Thread {
                do {
                    let client = try LoopbackClient(port: port)
                    while Measure.now() < deadline {
                        let bought = try client.request(DeviceAPI.purchase, body: purchase)
                        guard bought.status == 200, let id = StoreBenchmarks.transactionID(in: bought.body) else {
                            throw BenchError(
                                "purchase answered \(bought.status): \(String(decoding: bought.body, as: UTF8.self))")
                        }
                        let finished = try client.request(DeviceAPI.finish, .init(transactionId: id), body: [])
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
                target: ">= 2,000/s", met: Format.yes(rate >= 2_000)))
        return rate
    }

    /// The `transactionId` inside the signed transaction of a purchase response. Read straight from the bytes
    /// (find the JWS, decode its payload, find the field): the eight clients share the store's two cores, and
    /// parsing each answer with `JSONSerialization` and Foundation's string searches took a fifth of the
    /// machine's time in the row, time the store then did not get.
    static func transactionID(in body: [UInt8]) -> String? {
        guard let jwsStart = PurchaseAnswer.end(of: Array(#""signedTransaction":""#.utf8), in: body[...]),
            let jwsEnd = body[jwsStart...].firstIndex(of: UInt8(ascii: "\""))
        else { return nil }
        let jws = body[jwsStart..<jwsEnd]
        guard let firstDot = jws.firstIndex(of: UInt8(ascii: ".")),
            let secondDot = jws[(firstDot + 1)...].firstIndex(of: UInt8(ascii: "."))
        else { return nil }
        guard let claims = PurchaseAnswer.base64URLDecode(jws[(firstDot + 1)..<secondDot]) else { return nil }
        let key = Array(#""transactionId":"#.utf8)
        guard var index = PurchaseAnswer.end(of: key, in: claims[...]) else { return nil }
        if index < claims.count && claims[index] == UInt8(ascii: "\"") { index += 1 }
        let digits = claims[index...].prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        return digits.isEmpty ? nil : String(decoding: digits, as: UTF8.self)
    }
}

/// Byte-level reading of a purchase answer for the purchase clients (see ``StoreBenchmarks/transactionID(in:)``).
enum PurchaseAnswer {
    /// The index just past the first occurrence of `needle` in `bytes`.
    static func end(of needle: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count else { return nil }
        var index = bytes.startIndex
        let last = bytes.endIndex - needle.count
        while index <= last {
            if bytes[index] == needle[0] && bytes[index..<(index + needle.count)].elementsEqual(needle) {
                return index + needle.count
            }
            index += 1
        }
        return nil
    }

    /// Base64url (no padding) decoded, or nil for a character outside its alphabet.
    static func base64URLDecode(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for character in text {
            let value: UInt8
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = character - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = character - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0") + 52
            case UInt8(ascii: "-"), UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "_"), UInt8(ascii: "/"): value = 63
            case UInt8(ascii: "="): continue
            default: return nil
            }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return output
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

/// One client of the store or nginx on 127.0.0.1: a reused libcurl handle, so its requests share one keep-alive
/// connection, as the bench's clients always have.
struct LoopbackClient {
    private let connection: HTTPConnection
    private let port: UInt16

    init(port: UInt16) throws {
        connection = try HTTPConnection()
        self.port = port
    }

    /// `method path` with a JSON body when there is one, and `headers`.
    func request(_ method: String, _ path: String, body: [UInt8]? = nil, headers: [HTTPHeader] = []) throws
        -> HTTPClient.Response
    {
        try connection.send(
            method, "http://127.0.0.1:\(port)\(path)",
            headers: (body == nil ? [] : [HTTPHeader("Content-Type", "application/json")]) + headers, body: body ?? [])
    }
}
