import Foundation

/// A small blocking HTTP/1.1 client on POSIX sockets: what the store uses to deliver notifications and what
/// `mockstore control` uses to reach a running store. One request per connection (`Connection: close`); plain
/// `http://` only (the store listens on loopback).
public enum HTTPClient {
    /// A complete response.
    public struct Response: Equatable, Sendable {
        public var status: Int
        /// Names lower-cased.
        public var headers: [String: String]
        public var body: [UInt8]
    }

    /// Why a request got no usable response, classified as Apple's `sendAttemptResult` values.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public enum Kind: String, Sendable {
            /// Not an `http://host[:port]/path` URL, or a host that does not resolve.
            case invalidURL = "OTHER"
            /// The connection could not be made (refused, unreachable).
            case socketIssue = "SOCKET_ISSUE"
            /// No complete answer within the time allowed.
            case timedOut = "TIMED_OUT"
            /// Connected, then closed without a byte of response.
            case noResponse = "NO_RESPONSE"
            /// Closed in the middle of the response.
            case prematureClose = "PREMATURE_CLOSE"
            /// What came back is not HTTP.
            case invalidResponse = "INVALID_RESPONSE"
        }

        public var kind: Kind
        public var detail: String

        public var description: String { detail }

        /// Apple's `sendAttemptResult` for this failure.
        public var sendAttemptResult: String { kind.rawValue }
    }

    /// Sends one request and waits, at most `timeout` seconds in all, for the whole response.
    public static func send(
        _ method: String, _ url: String, headers: [HTTPHeader] = [], body: [UInt8] = [], timeout: TimeInterval = 10
    ) throws(Failure) -> Response {
        let target = try Target(url)
        let deadline = Date().addingTimeInterval(timeout)
        let descriptor = try connect(to: target, deadline: deadline)
        defer { close(descriptor) }

        var head = "\(method) \(target.pathAndQuery) HTTP/1.1\r\nHost: \(target.hostHeader)\r\nConnection: close\r\n"
        head += "Content-Length: \(body.count)\r\n"
        for header in headers where header.name.lowercased() != "content-length" {
            head += "\(header.name): \(header.value)\r\n"
        }
        head += "\r\n"
        try write(Array(head.utf8) + body, to: descriptor, deadline: deadline)
        return try readResponse(from: descriptor, deadline: deadline)
    }

    // MARK: URL

    struct Target {
        var host: String
        var port: UInt16
        var pathAndQuery: String
        var hostHeader: String

        init(_ url: String) throws(Failure) {
            guard let components = URLComponents(string: url), components.scheme?.lowercased() == "http",
                var host = components.host, !host.isEmpty
            else {
                throw Failure(kind: .invalidURL, detail: "\(url) is not an http://HOST[:PORT]/PATH URL")
            }
            if host.hasPrefix("[") && host.hasSuffix("]") {
                host = String(host.dropFirst().dropLast())
            }
            self.host = host
            port = UInt16(components.port ?? 80)
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            pathAndQuery = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
            let bracketed = host.contains(":") ? "[\(host)]" : host
            hostHeader = components.port == nil ? bracketed : "\(bracketed):\(port)"
        }
    }

    // MARK: Socket

    private static func connect(to target: Target, deadline: Date) throws(Failure) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(target.host, String(target.port), &hints, &list)
        guard resolved == 0, let first = list else {
            throw Failure(
                kind: .invalidURL, detail: "cannot resolve \(target.host): \(String(cString: gai_strerror(resolved)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            entry = current.pointee.ai_next
            let descriptor = socket(
                current.pointee.ai_family, current.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else {
                lastError = String(cString: strerror(errno))
                continue
            }
            let flags = fcntl(descriptor, F_GETFL)
            _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
            var result = Glibc.connect(descriptor, current.pointee.ai_addr, current.pointee.ai_addrlen)
            if result != 0 && errno == EINPROGRESS {
                guard wait(descriptor, for: Int16(POLLOUT), until: deadline) else {
                    close(descriptor)
                    throw Failure(kind: .timedOut, detail: "connecting to \(target.host) port \(target.port) timed out")
                }
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
                result = error == 0 ? 0 : -1
                errno = error
            }
            if result == 0 {
                _ = fcntl(descriptor, F_SETFL, flags)
                return descriptor
            }
            lastError = String(cString: strerror(errno))
            close(descriptor)
        }
        throw Failure(kind: .socketIssue, detail: "cannot connect to \(target.host) port \(target.port): \(lastError)")
    }

    /// Waits until `descriptor` is ready for `events` or the deadline passes.
    private static func wait(_ descriptor: Int32, for events: Int16, until deadline: Date) -> Bool {
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return false }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(min(remaining * 1_000, 60_000).rounded(.up)))
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return true }  // let the read or write report the error
        }
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32, deadline: Date) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            guard wait(descriptor, for: Int16(POLLOUT), until: deadline) else {
                throw Failure(kind: .timedOut, detail: "sending the request timed out")
            }
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw Failure(kind: .socketIssue, detail: "sending the request: \(String(cString: strerror(errno)))")
            }
            offset += sent
        }
    }

    private static func readResponse(from descriptor: Int32, deadline: Date) throws(Failure) -> Response {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var closed = false
        var head: (status: Int, headers: [String: String], bodyStart: Int)?
        while true {
            if head == nil, let end = headerEnd(in: received) {
                head = try parseHead(Array(received[..<end]), bodyStart: end + 4)
            }
            if let head, let body = try completeBody(received[head.bodyStart...], headers: head.headers, closed: closed)
            {
                return Response(status: head.status, headers: head.headers, body: body)
            }
            if closed {
                if received.isEmpty {
                    throw Failure(kind: .noResponse, detail: "the connection was closed without a response")
                }
                throw Failure(kind: .prematureClose, detail: "the connection was closed in the middle of the response")
            }
            guard wait(descriptor, for: Int16(POLLIN), until: deadline) else {
                throw Failure(
                    kind: .timedOut,
                    detail: received.isEmpty ? "no response in time" : "the response did not complete in time")
            }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                if errno == ECONNRESET {
                    closed = true
                    continue
                }
                throw Failure(kind: .socketIssue, detail: "reading the response: \(String(cString: strerror(errno)))")
            }
            if count == 0 {
                closed = true
            } else {
                received.append(contentsOf: buffer[0..<count])
            }
        }
    }

    private static func headerEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    private static func parseHead(_ bytes: [UInt8], bodyStart: Int) throws(Failure) -> (
        status: Int, headers: [String: String], bodyStart: Int
    ) {
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]), (100...599).contains(status)
        else {
            throw Failure(
                kind: .invalidResponse, detail: "not an HTTP status line: \(lines[0].prefix(80).debugDescription)")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return (status, headers, bodyStart)
    }

    /// The body once it is all there (by `Content-Length`, chunked encoding, or the connection closing), else nil.
    private static func completeBody(
        _ bytes: ArraySlice<UInt8>, headers: [String: String], closed: Bool
    ) throws(Failure) -> [UInt8]? {
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            return try dechunk(bytes)
        }
        if let text = headers["content-length"] {
            guard let length = Int(text), length >= 0 else {
                throw Failure(kind: .invalidResponse, detail: "bad Content-Length \(text.debugDescription)")
            }
            return bytes.count >= length ? Array(bytes.prefix(length)) : nil
        }
        return closed ? Array(bytes) : nil
    }

    private static func dechunk(_ bytes: ArraySlice<UInt8>) throws(Failure) -> [UInt8]? {
        var body: [UInt8] = []
        var index = bytes.startIndex
        while true {
            guard
                let lineEnd = bytes[index...].indices.first(where: {
                    bytes[$0] == 13 && $0 + 1 < bytes.endIndex && bytes[$0 + 1] == 10
                })
            else { return nil }
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw Failure(kind: .invalidResponse, detail: "bad chunk size \(String(sizeText).debugDescription)")
            }
            let dataStart = lineEnd + 2
            if size == 0 { return body }
            guard bytes.endIndex >= dataStart + size + 2 else { return nil }
            body.append(contentsOf: bytes[dataStart..<(dataStart + size)])
            index = dataStart + size + 2
        }
    }
}
