import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Raw bytes over TCP to a loopback server, for requests no HTTP library would send (broken HTTP, slow or partial
/// requests, oversized bodies, IPv6 literals on Linux). Each call is one blocking socket with send and receive
/// timeouts.
public enum RawHTTP {
    /// Opens a connection to `host` (IPv4 or IPv6 literal) `:port` with send and receive timeouts of `timeout`
    /// seconds. The caller closes the descriptor.
    public static func connect(host: String = "127.0.0.1", port: UInt16, timeout: Double = 10) throws -> Int32 {
        let isIPv6 = host.contains(":")
        let descriptor = socket(isIPv6 ? AF_INET6 : AF_INET, streamSocket, 0)
        guard descriptor >= 0 else { throw SupportFailure("socket: \(String(cString: strerror(errno)))") }
        var time = timeval(
            tv_sec: Int(timeout), tv_usec: numericCast(Int((timeout - timeout.rounded(.down)) * 1_000_000)))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        let connected = isIPv6 ? connect6(descriptor, host: host, port: port) : connect4(descriptor, host, port)
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw SupportFailure("connect to \(host) port \(port): \(reason)")
        }
        return descriptor
    }

    /// Sends what it can of `bytes` and returns how many went (the server may close early, e.g. on an oversized
    /// body).
    @discardableResult
    public static func send(_ descriptor: Int32, _ bytes: [UInt8]) -> Int {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { buffer in
                #if canImport(Glibc)
                    systemSend(descriptor, buffer.baseAddress, buffer.count)
                #else
                    Darwin.send(descriptor, buffer.baseAddress, buffer.count, 0)
                #endif
            }
            guard sent > 0 else { break }
            offset += sent
        }
        return offset
    }

    /// Reads until the server closes, the receive timeout passes, or `limit` bytes came.
    public static func receiveAll(_ descriptor: Int32, limit: Int = 4 << 20) -> [UInt8] {
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while reply.count < limit {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            reply.append(contentsOf: buffer[0..<count])
        }
        return reply
    }

    /// Sends `request` on a new connection and returns everything sent back before the server closed.
    /// `halfClose`: shut the sending side once the request is out, so the server sees its end; `limit`: stop reading
    /// after that many bytes.
    public static func exchange(
        _ request: [UInt8], host: String = "127.0.0.1", port: UInt16, timeout: Double = 10, halfClose: Bool = false,
        limit: Int = 4 << 20
    ) throws -> [UInt8] {
        let descriptor = try connect(host: host, port: port, timeout: timeout)
        defer { close(descriptor) }
        send(descriptor, request)
        if halfClose { shutdown(descriptor, Int32(SHUT_WR)) }
        return receiveAll(descriptor, limit: limit)
    }

    /// A parsed reply: status, headers (names lower-cased) and body.
    public struct Reply: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]

        public init(status: Int, headers: [String: String] = [:], body: [UInt8]) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// The body as UTF-8 text.
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// A well-formed request, `Connection: close`, with a JSON body when one is given.
    public static func request(_ method: String, _ path: String, body: [UInt8]? = nil, headers: [String] = [])
        -> [UInt8]
    {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for header in headers { head += header + "\r\n" }
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + (body ?? [])
    }

    /// Status, headers and body of a raw HTTP/1.x reply (not chunked), or nil when it does not start as one. A reply
    /// cut off inside its header has what the header gave and no body.
    public static func parse(_ bytes: [UInt8]) -> Reply? {
        let start = String(decoding: bytes.prefix(64), as: UTF8.self)
        guard start.hasPrefix("HTTP/1."), start.count >= 12, let status = Int(start.dropFirst(9).prefix(3)) else {
            return nil
        }
        let end = headerEnd(bytes)
        let lines = String(decoding: bytes[..<(end ?? bytes.count)], as: UTF8.self).components(separatedBy: "\r\n")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Reply(status: status, headers: headers, body: end.map { Array(bytes[($0 + 4)...]) } ?? [])
    }

    /// Where the blank line that ends the header starts, if it came.
    public static func headerEnd(_ bytes: [UInt8]) -> Int? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= 4 else { return nil }
        return (0...(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual(separator) }
    }

    private static func connect4(_ descriptor: Int32, _ host: String, _ port: UInt16) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        return connect(descriptor, to: address)
    }

    private static func connect6(_ descriptor: Int32, host: String, port: UInt16) -> Int32 {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = port.bigEndian
        inet_pton(AF_INET6, host, &address.sin6_addr)
        return connect(descriptor, to: address)
    }

    /// `connect(2)` to an IPv4 or IPv6 socket address.
    private static func connect<Address>(_ descriptor: Int32, to address: Address) -> Int32 {
        withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                systemConnect(descriptor, $0, socklen_t(MemoryLayout<Address>.size))
            }
        }
    }
}

/// `connect(2)`, under a name `RawHTTP.connect` does not shadow.
private func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(descriptor, address, length)
}

// SOCK_STREAM is an enum on Glibc and an Int32 on Darwin.
#if canImport(Glibc)
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
#else
    private let streamSocket = SOCK_STREAM
#endif

// The C call under a name no method shadows; Darwin has no MSG_NOSIGNAL (SIGPIPE is ignored per socket there).
private func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        send(fd, bytes, count, Int32(MSG_NOSIGNAL))
    #else
        send(fd, bytes, count, 0)
    #endif
}
