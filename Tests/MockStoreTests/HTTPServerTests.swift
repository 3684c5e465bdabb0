import Foundation
import FoundationNetworking
import Synchronization
import Testing

@testable import MockStoreHTTP
@testable import MockStoreServer

/// Whether `::1` can be bound here (containers sometimes have IPv6 off).
let ipv6LoopbackExists: Bool = {
    let descriptor = socket(AF_INET6, streamSocket, 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = sockaddr_in6()
    address.sin6_family = sa_family_t(AF_INET6)
    inet_pton(AF_INET6, "::1", &address.sin6_addr)
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
        }
    }
}()

/// The libmicrohttpd server on its own, with a handler that reports what it received.
@Suite struct HTTPServerTests {
    /// Answers with a JSON description of the request it got, and remembers it.
    final class EchoHandler: HTTPHandler {
        struct Echo: Codable {
            var method: String
            var path: String
            var query: [String: String]
            var contentType: String?
            var bodyLength: Int
            var bodySum: Int
        }

        let received = Mutex<[HTTPRequest]>([])

        func respond(to request: HTTPRequest) -> HTTPResponse {
            received.withLock { $0.append(request) }
            var query: [String: String] = [:]
            for item in request.query {
                query[item.name] = item.value ?? "<nil>"
            }
            return .json(
                Echo(
                    method: request.method, path: request.path, query: query,
                    contentType: request.header("content-type"),
                    bodyLength: request.body.count, bodySum: request.body.reduce(0) { $0 + Int($1) }))
        }

        func payloadTooLarge(limit: Int) -> HTTPResponse {
            .error(status: 413, code: .payloadTooLarge, message: "over \(limit)")
        }
    }

    let handler = EchoHandler()
    let server: HTTPServer
    let session: URLSession

    init() throws {
        server = try HTTPServer(
            host: "127.0.0.1", port: 0, limits: .init(maxBodyBytes: 1_000, maxDiscardedBytes: 100_000),
            handler: handler)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        session = URLSession(configuration: configuration)
    }

    func send(_ method: String, _ path: String, body: [UInt8]? = nil, headers: [String: String] = [:]) async throws
        -> (Int, [UInt8], HTTPURLResponse)
    {
        var request = URLRequest(url: try #require(URL(string: server.baseURL + path)))
        request.httpMethod = method
        request.httpBody = body.map { Data($0) }
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, Array(data), http)
    }
}

extension HTTPServerTests {
    @Test func portZeroGetsARealPort() {
        #expect(server.port != 0)
        #expect(server.baseURL == "http://127.0.0.1:\(server.port)")
    }

    @Test func requestReachesTheHandlerWithDecodedQueryAndHeaders() async throws {
        let (status, body, response) = try await send(
            "GET", "/some/path?ids=a%2Cb,c&flag&empty=", headers: ["Content-Type": "text/plain"])
        #expect(status == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let echo = try JSONDecoder().decode(EchoHandler.Echo.self, from: Data(body))
        #expect(echo.method == "GET")
        #expect(echo.path == "/some/path")
        #expect(echo.query["ids"] == "a,b,c")
        #expect(echo.query["empty"] == "")
        #expect(echo.query.keys.contains("flag"))
        #expect(echo.contentType == "text/plain")
    }

    @Test func wholeBodyArrivesUpToTheLimit() async throws {
        let bytes = (0..<1_000).map { UInt8($0 % 251) }
        let (status, body, _) = try await send("POST", "/upload", body: bytes)
        #expect(status == 200)
        let echo = try JSONDecoder().decode(EchoHandler.Echo.self, from: Data(body))
        #expect(echo.bodyLength == 1_000)
        #expect(echo.bodySum == bytes.reduce(0) { $0 + Int($1) })
        #expect(handler.received.withLock { $0.last?.body } == bytes)
    }

    @Test func oversizedBodyIsRefusedWithoutReachingTheHandlerAndTheServerGoesOn() async throws {
        let (status, body, response) = try await send("POST", "/upload", body: Array(repeating: 0x61, count: 1_001))
        #expect(status == 413)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(String(decoding: body, as: UTF8.self).contains("over 1000"))
        #expect(handler.received.withLock { $0.isEmpty })
        let (after, _, _) = try await send("GET", "/still-up")
        #expect(after == 200)
    }

    @Test func methodsPassThroughUnchanged() async throws {
        for method in ["PUT", "DELETE", "PATCH"] {
            let (_, body, _) = try await send(method, "/x", body: method == "DELETE" ? nil : [1, 2, 3])
            #expect(try JSONDecoder().decode(EchoHandler.Echo.self, from: Data(body)).method == method)
        }
    }

    @Test func stopClosesTheListener() async throws {
        let (before, _, _) = try await send("GET", "/")
        #expect(before == 200)
        server.stop()
        server.stop()
        await #expect(throws: (any Error).self) { _ = try await send("GET", "/") }
    }

    @Test func notAnAddressIsRefused() {
        #expect(throws: HTTPServerError.self) { try HTTPServer(host: "example.com", port: 0, handler: handler) }
    }

    @Test func aPortInUseIsReported() {
        let error = #expect(throws: HTTPServerError.self) {
            try HTTPServer(host: "127.0.0.1", port: server.port, handler: handler)
        }
        #expect(error?.description.contains("cannot listen on 127.0.0.1 port \(server.port)") == true)
    }

    @Test(.enabled(if: ipv6LoopbackExists, "this machine has no IPv6 loopback"))
    func ipv6LoopbackWorks() throws {
        let v6 = try HTTPServer(host: "::1", port: 0, handler: handler)
        #expect(v6.baseURL == "http://[::1]:\(v6.port)")
        // URLSession on Linux refuses IPv6 literal URLs, so this one is sent by hand.
        let reply = try RawHTTPClient.send(
            "GET /six HTTP/1.1\r\nHost: [::1]\r\nConnection: close\r\n\r\n", host: "::1", port: v6.port)
        #expect(reply.status == 200)
        #expect(try JSONDecoder().decode(EchoHandler.Echo.self, from: Data(reply.body)).path == "/six")
    }

    @Test func chunkedOversizedBodyIsRefusedAndDropped() throws {
        let chunk = String(repeating: "b", count: 600)
        let body = "258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n"
        let reply = try RawHTTPClient.send(
            "POST /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + body,
            port: server.port)
        #expect(reply.status == 413)
        #expect(reply.headers["content-type"] == "application/json")
        #expect(handler.received.withLock { $0.isEmpty })
    }

    @Test func endlessBodyIsCutOff() throws {
        // More than maxDiscardedBytes without a Content-Length: the server closes instead of reading on.
        let chunk = String(repeating: "c", count: 4_096)
        var body = ""
        for _ in 0..<40 { body += "1000\r\n\(chunk)\r\n" }
        let raw = try RawHTTPClient.exchange(
            Array("POST /endless HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n\(body)".utf8),
            host: "127.0.0.1", port: server.port)
        #expect(!String(decoding: raw, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        #expect(handler.received.withLock { $0.isEmpty })
        let after = try RawHTTPClient.send(
            "GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
        #expect(after.status == 200, "the server goes on")
    }

    @Test func garbageIsAnsweredWith400AndTheServerGoesOn() throws {
        let raw = try RawHTTPClient.exchange(
            Array("THIS IS NOT HTTP\r\n\r\n".utf8), host: "127.0.0.1", port: server.port)
        #expect(String(decoding: raw, as: UTF8.self).hasPrefix("HTTP/1.1 400"), "libmicrohttpd refuses it")
        let after = try RawHTTPClient.send(
            "GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: server.port)
        #expect(after.status == 200)
    }
}

// SOCK_STREAM is an enum on Glibc and an Int32 on Darwin.
#if canImport(Glibc)
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
#else
    private let streamSocket = SOCK_STREAM
#endif
