import Foundation
import TestSupport

/// Sends raw bytes over TCP and reads the reply until the server closes: for requests URLSession will not
/// make (broken HTTP, chunked oversized bodies, IPv6 literals on Linux).
enum RawHTTPClient {
    typealias Failure = SupportFailure

    /// A parsed reply: status, headers (names lower-cased) and body.
    typealias Reply = RawHTTP.Reply

    /// Sends `request` to `host`:`port` and returns everything the server sends back before closing.
    static func exchange(_ request: [UInt8], host: String, port: UInt16, timeout: Int = 10) throws -> [UInt8] {
        try RawHTTP.exchange(request, host: host, port: port, timeout: Double(timeout), limit: .max)
    }

    /// Splits a raw HTTP/1.1 reply (not chunked) into status, headers and body; the header must be complete.
    static func parse(_ bytes: [UInt8]) throws -> Reply {
        guard RawHTTP.headerEnd(bytes) != nil else {
            throw Failure(
                description: "no complete header in \(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
        guard let reply = RawHTTP.parse(bytes) else {
            throw Failure(description: "bad status line in \(String(decoding: bytes.prefix(80), as: UTF8.self))")
        }
        return reply
    }

    /// Sends `request` and parses the reply.
    static func send(_ request: String, body: [UInt8] = [], host: String = "127.0.0.1", port: UInt16) throws -> Reply {
        try parse(exchange(Array(request.utf8) + body, host: host, port: port))
    }
}
