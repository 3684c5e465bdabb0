import Foundation
import TestSupport

/// Sends raw bytes over TCP and reads the reply until the server closes: for requests URLSession will not
/// make (broken HTTP, chunked oversized bodies, IPv6 literals on Linux).
enum RawHTTPClient {
    typealias Failure = SupportFailure

    /// A parsed reply: status, headers (names lower-cased) and body.
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
    }

    /// Sends `request` to `host`:`port` and returns everything the server sends back before closing.
    static func exchange(_ request: [UInt8], host: String, port: UInt16, timeout: Int = 10) throws -> [UInt8] {
        try RawHTTP.exchange(request, host: host, port: port, timeout: Double(timeout), limit: .max)
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
