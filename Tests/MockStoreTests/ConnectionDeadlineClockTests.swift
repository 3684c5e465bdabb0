import Clocks
import Foundation
import StoreWire
import TestSupport
import Testing

@testable import MockStoreHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// The server's deadlines for slow and idle clients wait on its clock (issue 34, one clock that waits): on a test's
/// clock a late request is answered 408 and an idle connection closed the moment the test moves the clock past the
/// deadline, never after real seconds.
@Suite struct ConnectionDeadlineClockTests {
    let clock = TestClock(milliseconds: 1_000_000)
    let server: HTTPServer

    init() throws {
        server = try HTTPServer(
            host: "127.0.0.1", port: 0,
            limits: HTTPServer.Limits(idleTimeoutSeconds: 3_600, requestTimeoutSeconds: 2),
            handler: NotificationReceiver.Recorder(statuses: []), clock: clock)
    }

    private var deadlines: ConnectionDeadlines { server.deadlines }

    @Test func aHalfRequestIsAnswered408WhenTheClockPassesItsDeadline() async throws {
        defer { server.stop() }
        // The receive timeout (60 real seconds) bounds only a hang.
        let client = try RawHTTP.connect(port: server.port, timeout: 60)
        defer { close(client) }
        RawHTTP.send(client, Array("GET /products HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ".utf8))
        let deadlines = deadlines
        #expect(try await eventually(timeout: 60, "the request line is in") { deadlines.count(in: .receiving) == 1 })
        clock.advance(byMilliseconds: 1_999)
        #expect(server.connectionsClosedForDeadlines == 0)
        clock.advance(byMilliseconds: 2)
        let reply = try #require(RawHTTP.parse(RawHTTP.receiveAll(client)), "answered, then closed")
        #expect(reply.status == 408)
        #expect(server.connectionsClosedForDeadlines == 1)
    }

    @Test func anIdleConnectionIsClosedWhenTheClockPassesItsIdleDeadline() async throws {
        defer { server.stop() }
        let client = try RawHTTP.connect(port: server.port, timeout: 60)
        defer { close(client) }
        let deadlines = deadlines
        #expect(try await eventually(timeout: 60, "the connection is open") { deadlines.count(in: .idle) == 1 })
        clock.advance(byMilliseconds: 3_600_001)
        #expect(RawHTTP.receiveAll(client).isEmpty, "closed without a word")
        #expect(server.connectionsClosedForDeadlines == 1)
    }
}
