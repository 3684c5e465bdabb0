import Foundation

/// Sends raw bytes over TCP and reads the reply until the server closes: for requests URLSession will not
/// make (broken HTTP, chunked oversized bodies, IPv6 literals on Linux).
enum RawHTTPClient {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A parsed reply: status, headers (names lower-cased) and body.
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
    }

    /// Sends `request` to `host`:`port` and returns everything the server sends back before closing.
    static func exchange(_ request: [UInt8], host: String, port: UInt16, timeout: Int = 10) throws -> [UInt8] {
        let isIPv6 = host.contains(":")
        let descriptor = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        let connected: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard connected == 0 else { throw Failure(description: "connect: \(String(cString: strerror(errno)))") }
        var offset = 0
        while offset < request.count {
            let sent = request[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            // The server may answer and close before reading everything (an oversized body): stop sending.
            guard sent > 0 else { break }
            offset += sent
        }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            reply.append(contentsOf: buffer[0..<count])
        }
        return reply
    }

    /// Splits a raw HTTP/1.1 reply (not chunked) into status, headers and body.
    static func parse(_ bytes: [UInt8]) throws -> Reply {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
            throw Failure(
                description: "no complete header in \(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "bad status line \(lines[0].debugDescription)")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Reply(status: status, headers: headers, body: Array(bytes[(end + separator.count)...]))
    }

    /// Sends `request` and parses the reply.
    static func send(_ request: String, body: [UInt8] = [], host: String = "127.0.0.1", port: UInt16) throws -> Reply {
        try parse(exchange(Array(request.utf8) + body, host: host, port: port))
    }
}
