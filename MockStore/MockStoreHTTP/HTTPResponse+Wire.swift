import StoreWire

extension HTTPResponse {
    /// The response as HTTP/1.1 puts it on the wire, with `Content-Length` and, when `closing`,
    /// `Connection: close`: for the one answer libmicrohttpd cannot give, to a request still arriving when its
    /// deadline passes (``ConnectionDeadlines``). Made once when the server starts.
    func wireBytes(closing: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reason(for: status))\r\n"
        for header in headers where !["content-length", "connection"].contains(header.name.lowercased()) {
            head += "\(header.name): \(header.value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\n"
        if closing { head += "Connection: close\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    /// The reason phrase of the statuses the server writes itself.
    static func reason(for status: Int) -> String {
        switch status {
        case 408: return "Request Timeout"
        case 413: return "Content Too Large"
        case 503: return "Service Unavailable"
        default: return "Error"
        }
    }

    /// `seconds` in words: whole numbers without a fraction (`10`), others as given (`0.5`).
    static func seconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
    }
}
