import Foundation
import StoreWire
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A request that does not arrive whole within `--request-timeout` is answered `408 Request Timeout` with the
/// store's JSON error body, then its connection is closed: through the real binary, with clients that send half a
/// request (half the headers, or the headers and half the body) and wait.
@Suite(.serialized) struct LateRequestTests {
    @Test(arguments: [
        "GET \(DeviceAPI.products.path()) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ",
        "POST \(DeviceAPI.purchase.path()) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: 200\r\n\r\n{\"productId\":",
    ])
    func aHalfRequestIsAnswered408ThenClosed(half: String) async throws {
        let store = try await EphemeralMockStore.inProcess(
            ["--ephemeral", "--request-timeout", "1", "--idle-timeout", "30"])
        let client = try RawHTTP.connect(port: store.port, timeout: 8)
        defer { close(client) }
        RawHTTP.send(client, Array(half.utf8))

        let start = Date()
        // Reads until the server closes (or the 8 s receive timeout): the answer, then the end of the stream.
        let bytes = RawHTTP.receiveAll(client)
        let waited = Date().timeIntervalSince(start)
        let reply = try #require(RawHTTP.parse(bytes), "no answer: \(String(decoding: bytes, as: UTF8.self))")
        #expect(reply.status == 408)
        #expect(reply.headers["content-type"] == "application/json")
        #expect(reply.headers["connection"]?.lowercased() == "close")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any])
        #expect(body["errorCode"] as? Int == 4_080_000)
        let message = try #require(body["errorMessage"] as? String)
        #expect(message.contains("1 seconds"), "\(message)")
        #expect(waited > 0.8 && waited < 6, "answered after \(waited) s with --request-timeout 1")
        // Closed after the answer: nothing more comes, and the store still serves others.
        var byte: UInt8 = 0
        #expect(recv(client, &byte, 1, 0) <= 0)
        #expect(try store.purchase() == 200)
    }
}
