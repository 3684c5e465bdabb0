import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback HTTP/1.1 server (127.0.0.1, a free port) that answers each request as the test scripts it, including
/// in ways a store must not: a body a byte at a time, a body that never ends. The server side of ``RawHTTP``: one
/// thread accepts, one thread a connection, every answer `Connection: close`. Its threads hold it: a test stops it
/// with ``stop()`` (in a `defer`).
public final class ScriptedHTTPServer: @unchecked Sendable {
    /// A request as the server read it (its body, if any, is read and dropped).
    public struct Request: Sendable {
        public var method: String
        /// The path with its query, as sent.
        public var target: String
        /// The path without its query.
        public var path: String { String(target.prefix { $0 != "?" }) }
        /// The query's items, decoded.
        public var query: [String: String] {
            var items: [String: String] = [:]
            for item in URLComponents(string: target)?.queryItems ?? [] { items[item.name] = item.value ?? "" }
            return items
        }
    }

    /// How to answer.
    public enum Reply: Sendable {
        /// `body` whole, at once.
        case whole(status: Int, body: String)
        /// The header at once (the whole body's `Content-Length`), then `body` one byte every `every` seconds.
        case dribble(body: String, every: TimeInterval)
        /// A chunked body that never ends, sent as fast as the client takes it, until the client goes.
        case endless
        /// A `Content-Length` of `declared` bytes, then bytes as fast as the client takes them.
        case declared(Int)
        /// ``declared(_:)`` with another status than 200.
        case declaredWithStatus(Int, length: Int)
    }

    /// The port it listens on (127.0.0.1).
    public let port: UInt16
    private let listener: Int32
    private let answer: @Sendable (Request) -> Reply
    private let lock = NSLock()
    private var stopped = false
    private var seen: [Request] = []
    private var sent = 0

    /// `http://127.0.0.1:PORT`.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// Every request read so far, in order.
    public var requests: [Request] { lock.withLock { seen } }

    /// Bytes of body sent so far, over every connection.
    public var bodyBytesSent: Int { lock.withLock { sent } }

    /// Listens on 127.0.0.1 (a free port) and answers each request with `answer(request)`.
    public init(_ answer: @escaping @Sendable (Request) -> Reply) throws {
        self.answer = answer
        (listener, port) = try Self.listening()
        let thread = Thread { [self] in acceptConnections() }
        thread.start()
    }

    /// Stops accepting, and ends every answer under way at its next write.
    public func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        // Wakes the blocked accept(2); the accepting thread closes the socket as it leaves.
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func acceptConnections() {
        defer { close(listener) }
        while !isStopped {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            Thread { [self] in serve(connection) }.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var time = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        // A client that stops reading without going cannot hold a sending thread for ever.
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        guard let request = Self.read(connection) else { return }
        lock.withLock { seen.append(request) }
        switch answer(request) {
        case .whole(let status, let body):
            RawHTTP.send(connection, Self.head(status: status, length: body.utf8.count) + Array(body.utf8))
        case .dribble(let body, let every):
            RawHTTP.send(connection, Self.head(status: 200, length: body.utf8.count))
            for byte in body.utf8 {
                guard !isStopped, push([byte], on: connection) else { return }
                pace(seconds: every)
            }
        case .endless:
            RawHTTP.send(connection, Self.head(status: 200, length: nil))
            let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 0x20, count: 0x10000) + Array("\r\n".utf8)
            while !isStopped, push(chunk, on: connection, counting: 0x10000) {}
        case .declared(let length):
            stream(length, status: 200, on: connection)
        case .declaredWithStatus(let status, let length):
            stream(length, status: status, on: connection)
        }
    }

    /// A header declaring `length` bytes, then the bytes as fast as the client takes them, until it goes.
    private func stream(_ length: Int, status: Int, on connection: Int32) {
        RawHTTP.send(connection, Self.head(status: status, length: length))
        let block = [UInt8](repeating: 0x20, count: 0x10000)
        var left = length
        while left > 0, !isStopped, push(Array(block.prefix(left)), on: connection) { left -= block.count }
    }

    /// Sends `bytes` whole; false when the client has gone. `counting` bytes of them are body (all, unless said).
    private func push(_ bytes: [UInt8], on connection: Int32, counting: Int? = nil) -> Bool {
        guard RawHTTP.send(connection, bytes) == bytes.count else { return false }
        lock.withLock { sent += counting ?? bytes.count }
        return true
    }

    /// The response header: JSON, `Connection: close`, a `Content-Length` or (nil) chunked.
    private static func head(status: Int, length: Int?) -> [UInt8] {
        let framing = length.map { "Content-Length: \($0)" } ?? "Transfer-Encoding: chunked"
        let reason = status == 200 ? "OK" : "Scripted"
        let lines = ["HTTP/1.1 \(status) \(reason)", "Content-Type: application/json", framing, "Connection: close"]
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// Reads a request's header and its body (by `Content-Length`); nil when the client sends no whole header.
    private static func read(_ connection: Int32) -> Request? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var end: Int?
        while end == nil {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            bytes += buffer[0..<count]
            end = RawHTTP.headerEnd(bytes)
        }
        let header = String(decoding: bytes[..<end!], as: UTF8.self).components(separatedBy: "\r\n")
        let words = header[0].split(separator: " ")
        guard words.count >= 2 else { return nil }
        let length =
            header.dropFirst().compactMap { line -> Int? in
                guard line.lowercased().hasPrefix("content-length:") else { return nil }
                return Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
            }.first ?? 0
        var body = bytes.count - (end! + 4)
        while body < length {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            body += count
        }
        return Request(method: String(words[0]), target: String(words[1]))
    }

    /// A listening socket on 127.0.0.1, port 0, and the port it got.
    private static func listening() throws -> (Int32, UInt16) {
        let descriptor = socket(AF_INET, streamSocket, 0)
        guard descriptor >= 0 else { throw SupportFailure("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 64) == 0
                    && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw SupportFailure("cannot listen on 127.0.0.1: \(reason)")
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }
}

// SOCK_STREAM is an enum on Glibc and an Int32 on Darwin.
#if canImport(Glibc)
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
#else
    private let streamSocket = SOCK_STREAM
#endif
