import Foundation
import StoreWire
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Hostile HTTP against the real `mockstore`: malformed request lines, huge headers and request lines, oversized,
/// truncated and lying bodies, every wrong method, bad and deeply nested JSON, chunked bodies that lie, smuggling
/// shapes, odd paths, seeded mutations of good requests, and slow partial requests held open (slowloris-ish). Must
/// hold after each: the process is alive, it still answers a normal request correctly and promptly, it never answers
/// a client's mistake with a 5xx (but 501 and 505, which say what the client got wrong), and while partial requests
/// hang it keeps serving others.
@Suite struct HostileHTTPTests {
    static let purchase = DeviceAPI.purchase.path()

    /// The hostile requests, by name.
    static func cases() -> [(String, [UInt8])] {
        func text(_ string: String) -> [UInt8] { Array(string.utf8) }
        var list: [(String, [UInt8])] = [
            ("empty line", text("\r\n\r\n")),
            ("method only", text("GET\r\n\r\n")),
            ("no version", text("GET /storekit/v1/products\r\n\r\n")),
            ("HTTP/0.9", text("GET /\r\n")),
            ("HTTP/2 preface", text("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")),
            ("version 9.9", text("GET / HTTP/9.9\r\nHost: x\r\n\r\n")),
            ("binary garbage", (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }),
            ("NUL in the request line", text("GET /storekit/v1/products\u{0}?ids=x HTTP/1.1\r\nHost: x\r\n\r\n")),
            ("a 64 KiB path", text("GET /" + String(repeating: "a", count: 65_536) + " HTTP/1.1\r\nHost: x\r\n\r\n")),
            (
                "a 1 MiB header",
                text("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 1 << 20) + "\r\n\r\n")
            ),
            (
                "10 000 headers",
                text("GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-A: 1\r\n", count: 10_000) + "\r\n")
            ),
            ("a header without a colon", text("GET / HTTP/1.1\r\nHost x\r\n\r\n")),
            (
                "a 10 000-parameter query",
                text(
                    "GET /storekit/v1/products?" + (0..<10_000).map { "ids=\($0)" }.joined(separator: "&")
                        + " HTTP/1.1\r\nHost: x\r\n\r\n")
            ),
            ("path traversal", text("GET /../../../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n")),
            (
                "encoded traversal in an id",
                text(
                    "POST /storekit/v1/transactions/%2e%2e%2f%2e%2e/finish HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
                )
            ),
            (
                "a 10 000-character transaction id",
                text(
                    "POST /storekit/v1/transactions/" + String(repeating: "9", count: 10_000)
                        + "/finish HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
            ),
            (
                "a body larger than its Content-Length says",
                text(
                    "POST \(purchase) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n{\"productId\":\"ai.voicedebrief.app.credit.500\"}"
                )
            ),
            (
                "a truncated body",
                text(
                    "POST \(purchase) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"productId\":"
                )
            ),
            (
                "an oversized declared body",
                text("POST \(purchase) HTTP/1.1\r\nHost: x\r\nContent-Length: 104857600\r\n\r\n")
                    + [UInt8](repeating: 0x7B, count: 300_000)
            ),
            ("a negative Content-Length", text("POST \(purchase) HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n{}")),
            (
                "two Content-Lengths",
                text("POST \(purchase) HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 40\r\n\r\n{}")
            ),
            (
                "Content-Length and chunked",
                text(
                    "POST \(purchase) HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET / HTTP/1.1\r\n\r\n"
                )
            ),
            (
                "a chunk size that is not hex",
                text("POST \(purchase) HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
            ),
            (
                "a chunk larger than sent",
                text("POST \(purchase) HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFF\r\n{}")
            ),
            (
                "an endless chunked body",
                text("POST \(purchase) HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
                    + Array(
                        String(repeating: "FFFF\r\n" + String(repeating: "x", count: 65_535) + "\r\n", count: 40).utf8)
            ),
            ("lowercase method", text("get /storekit/v1/products HTTP/1.1\r\nHost: x\r\n\r\n")),
            (
                "a 10 000-character method",
                text(String(repeating: "G", count: 10_000) + " / HTTP/1.1\r\nHost: x\r\n\r\n")
            ),
        ]
        for method in ["PUT", "DELETE", "PATCH", "TRACE", "OPTIONS", "CONNECT", "FOO"] {
            for path in [
                purchase, DeviceAPI.products.path(), DeviceAPI.unfinished.path(),
                DeviceAPI.finish.path(.init(transactionId: "1")), SandboxAPI.rootCertificate.path(),
            ] {
                list.append(
                    ("\(method) \(path)", text("\(method) \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")))
            }
        }
        let bodies: [(String, String)] = [
            ("an empty body", ""), ("not JSON", "hello"), ("an unclosed object", "{"), ("an array", "[]"),
            ("null", "null"), ("a number product", #"{"productId":5}"#),
            ("an unknown product", #"{"productId":"nope"}"#),
            ("quantity 0", #"{"productId":"ai.voicedebrief.app.credit.500","quantity":0}"#),
            (
                "quantity beyond Int64",
                #"{"productId":"ai.voicedebrief.app.credit.500","quantity":99999999999999999999}"#
            ),
            ("quantity 1e2", #"{"productId":"ai.voicedebrief.app.credit.500","quantity":1e2}"#),
            ("a bad token", #"{"productId":"ai.voicedebrief.app.credit.500","appAccountToken":"not-a-uuid"}"#),
            ("duplicate keys", #"{"productId":"x","productId":"ai.voicedebrief.app.credit.500"}"#),
            ("100 000 nested arrays", String(repeating: "[", count: 100_000)),
            ("100 000 nested objects", String(repeating: #"{"a":"#, count: 100_000)),
            ("a 60 KiB string", #"{"productId":""# + String(repeating: "x", count: 60_000) + #""}"#),
            ("invalid UTF-8", "{\"productId\":\"\u{FFFD}\"}"),
        ]
        for (name, body) in bodies {
            var bytes = text(body)
            if name == "invalid UTF-8" { bytes = text(#"{"productId":""#) + [0xC3, 0x28, 0xFF] + text(#""}"#) }
            list.append(("POST purchases with \(name)", HTTPProbe.request("POST", purchase, body: bytes)))
        }
        return list
    }

    func expectHealthy(_ store: StoreServer, after name: String, sourceLocation: SourceLocation = #_sourceLocation)
        -> Bool
    {
        guard store.isRunning else {
            Issue.record("the mock store died after: \(name)", sourceLocation: sourceLocation)
            return false
        }
        // Answered correctly is what must hold; how fast is the bench's, not a test's (a loaded machine is slow).
        guard store.answersNormally(timeout: 60) else {
            Issue.record("the mock store no longer answers after: \(name)", sourceLocation: sourceLocation)
            return false
        }
        return true
    }
}

extension HostileHTTPTests {
    @Test func hostileRequestsNeverCrashTheStoreNorGetA5xx() async throws {
        var figures = Figures(suite: "hostile HTTP", test: #function)
        defer { figures.record() }
        let store = try await StoreServer.start()
        for (name, request) in HostileHTTPTests.cases() {
            figures.runs += 1
            figures.faults += 1
            let reply = try HTTPProbe.exchange(request, port: store.port, timeout: 10)
            if let parsed = HTTPProbe.parse(reply) {
                // 501 (method not implemented) and 505 (HTTP version not supported) are the right answers to some.
                let serverFault = parsed.status >= 500 && ![501, 505].contains(parsed.status)
                #expect(!serverFault, "\(name): HTTP \(parsed.status) \(parsed.text.prefix(200))")
                if serverFault { figures.failures += 1 }
            }
            if !expectHealthy(store, after: name) {
                figures.failures += 1
                return
            }
        }
        // Nothing hostile bought anything.
        // (Duplicate keys: JSON lets the last one win, so that one request may buy.)
        let bought = try store.unfinished().count
        #expect(bought <= 1, "purchases made by malformed requests: \(bought)")
    }

    @Test func seededMutationsOfGoodRequests() async throws {
        var figures = Figures(suite: "hostile HTTP", test: #function)
        defer { figures.record() }
        // Two products, so that the good products request lists more than one.
        let store = try await StoreServer.start(catalogue: Repository.twoPackCatalogue)
        let good: [[UInt8]] = [
            HTTPProbe.request(
                "POST", HostileHTTPTests.purchase, body: Array(#"{"productId":"ai.voicedebrief.app.credit.500"}"#.utf8)),
            HTTPProbe.request(
                "GET", DeviceAPI.products.path() + "?ids=ai.voicedebrief.app.credit.500,ai.voicedebrief.app.credit.1000"
            ),
            HTTPProbe.request("GET", DeviceAPI.unfinished.path()),
            HTTPProbe.request("POST", DeviceAPI.finish.path(.init(transactionId: "2000000000000001")), body: []),
        ]
        for seed in Reliability.seeds("http-mutations", fast: 150, long: 5000) {
            var random = SeededRandom(seed: seed)
            var bytes = random.pick(good)
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes[at] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes.remove(at: at)
                case 2:
                    bytes.insert(
                        contentsOf: (0..<Int.random(in: 1...64, using: &random)).map { _ in
                            UInt8.random(in: 0...255, using: &random)
                        }, at: at)
                default: bytes = Array(bytes.prefix(at))
                }
                if bytes.isEmpty { bytes = [0x0D, 0x0A] }
            }
            figures.runs += 1
            figures.faults += 1
            let reply = try HTTPProbe.exchange(bytes, port: store.port, timeout: 10)
            if let parsed = HTTPProbe.parse(reply), parsed.status >= 500, ![501, 505].contains(parsed.status) {
                figures.failures += 1
                Issue.record(
                    "HTTP \(parsed.status) for a mutated request \(String(decoding: bytes.prefix(200), as: UTF8.self).debugDescription); \(Reliability.replayHint(seed: seed, test: "seededMutationsOfGoodRequests"))"
                )
            }
            if !store.isRunning || (figures.runs % 25 == 0 && !store.answersNormally()) {
                figures.failures += 1
                Issue.record(
                    "the store died or stopped answering; \(Reliability.replayHint(seed: seed, test: "seededMutationsOfGoodRequests"))"
                )
                return
            }
        }
        _ = expectHealthy(store, after: "the mutations")
    }

    @Test func slowPartialRequestsDoNotStopTheStoreServingOthers() async throws {
        var figures = Figures(suite: "hostile HTTP", test: #function)
        defer { figures.record() }
        let store = try await StoreServer.start()
        // Twenty connections that send a request a few bytes at a time and never finish it.
        var slow: [Int32] = []
        defer { for fd in slow { close(fd) } }
        for _ in 0..<20 { slow.append(try HTTPProbe.connect(port: store.port, timeout: 5)) }
        let partial = Array(
            "POST \(DeviceAPI.purchase.path()) HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"productId\":".utf8)
        for round in 0..<6 {
            for fd in slow {
                let start = min(partial.count, round * 12)
                HTTPProbe.send(fd, Array(partial[start..<min(partial.count, start + 12)]))
            }
            #expect(store.answersNormally(timeout: 60), "no answer while \(slow.count) requests hang (round \(round))")
            pace(seconds: 0.1)
        }
        // Half-open (a header that never ends) and a connection that sends nothing at all.
        let silent = try HTTPProbe.connect(port: store.port, timeout: 5)
        defer { close(silent) }
        _ = expectHealthy(store, after: "slow partial requests")
        figures.runs = 1
        figures.faults = slow.count + 1
    }
}
