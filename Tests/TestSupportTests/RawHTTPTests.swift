import TestSupport
import Testing

@Suite struct RawHTTPTests {
    @Test func aWholeReplyGivesStatusHeadersAndBody() throws {
        let reply = try #require(
            RawHTTP.parse(
                Array("HTTP/1.1 404 Not Found\r\nContent-Type:  text/plain \r\nX-A: b\r\n\r\nbody\r\n\r\n".utf8)))
        #expect(reply.status == 404)
        #expect(reply.headers == ["content-type": "text/plain", "x-a": "b"])
        #expect(reply.text == "body\r\n\r\n")
    }

    @Test func aReplyCutInItsHeaderHasNoBodyAndNonsenseIsNoReply() {
        let cut = RawHTTP.parse(Array("HTTP/1.0 200 OK\r\nContent-Length: 5".utf8))
        #expect(cut?.status == 200 && cut?.body == [])
        #expect(RawHTTP.headerEnd(Array("HTTP/1.0 200 OK\r\n".utf8)) == nil)
        #expect(RawHTTP.parse(Array("SSH-2.0-OpenSSH\r\n\r\n".utf8)) == nil)
        #expect(RawHTTP.parse([]) == nil)
    }

    @Test func requestsCloseTheConnectionAndSayTheirLength() {
        let request = String(
            decoding: RawHTTP.request("POST", "/p", body: Array("{}".utf8), headers: ["A: b"]), as: UTF8.self)
        #expect(
            request
                == "POST /p HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nA: b\r\n"
                + "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
    }
}
