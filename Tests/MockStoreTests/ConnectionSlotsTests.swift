import Foundation
import Testing

@testable import MockStoreHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the server's connections are counted out (``ConnectionSlots``), and room made in process: idle connections
/// beyond the limit are closed, oldest first, and counted.
@Suite struct ConnectionSlotsTests {
    /// Kept and total, for `requested` connections and `files` descriptors.
    static func split(_ requested: Int, files: Int) -> [Int] {
        let slots = ConnectionSlots(requested: requested, files: files)
        return [slots.kept, slots.total]
    }

    @Test func slotsKeepWhatIsAskedAndAMarginAboveForLibmicrohttpd() {
        #expect(Self.split(16, files: 20_000) == [16, 32])
        #expect(Self.split(4_096, files: 20_000) == [4_096, 4_352])
        #expect(ConnectionSlots(requested: 1_000_000, files: 2_000_000).total == 1_000_256)
        // Fewer files than asked for: libmicrohttpd gets them all, and the margin is kept below.
        #expect(Self.split(4_096, files: 960) == [704, 960])
        #expect(Self.split(4_096, files: 16) == [8, 16])
    }

    @Test func idleConnectionsBeyondTheLimitAreClosedOldestFirst() throws {
        struct Answer: HTTPHandler {
            func respond(to request: HTTPRequest) -> HTTPResponse { .json(["ok": true]) }
            func payloadTooLarge(limit: Int) -> HTTPResponse { .error(status: 413, code: .payloadTooLarge, message: "") }
        }
        let server = try HTTPServer(
            host: "127.0.0.1", port: 0, limits: HTTPServer.Limits(connectionLimit: 16, idleTimeoutSeconds: 86_400),
            handler: Answer())
        defer { server.stop() }
        var idle: [Int32] = []
        defer { idle.forEach { close($0) } }
        for _ in 0..<40 { idle.append(try RawHTTP.connect(port: server.port, timeout: 120)) }

        let reply = try RawHTTP.exchange(RawHTTP.request("GET", "/"), port: server.port, timeout: 120)
        #expect(RawHTTP.parse(reply)?.status == 200)
        #expect(waitUntil(timeout: 120) { server.connectionsClosedForRoom >= 40 - 16 })
        #expect(server.connectionsClosedForDeadlines == 0)
        #expect(IdleConnectionRoomTests.isClosed(idle[0]), "the oldest is closed")
        #expect(!IdleConnectionRoomTests.isClosed(idle[39]), "the newest is kept")
    }
}
