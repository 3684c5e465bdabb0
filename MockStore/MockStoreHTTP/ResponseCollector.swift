import Foundation

/// What libcurl hands over of one response: header lines and body bytes (at most ``bodyLimit`` of them), through C
/// callbacks whose context is this object.
final class ResponseCollector {
    private(set) var headers: [String: String] = [:]
    private(set) var body: [UInt8] = []
    /// Whether any byte of a response arrived (a status line at least).
    private(set) var receivedAny = false
    /// The most body bytes kept; at the first byte beyond, reading stops (libcurl ends the transfer with
    /// `CURLE_WRITE_ERROR`) and ``isBodyCut`` is set: an answer without end must not grow the process.
    let bodyLimit: Int
    /// Whether the body went beyond ``bodyLimit`` and the rest was left unread.
    private(set) var isBodyCut = false

    init(bodyLimit: Int = .max) {
        self.bodyLimit = max(0, bodyLimit)
    }

    /// libcurl's `CURLOPT_WRITEFUNCTION`: a piece of the body.
    static let bodyCallback: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int =
        { bytes, size, count, context in
            guard let context else { return 0 }
            let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            let kept = min(length, collector.bodyLimit - collector.body.count)
            if let bytes, kept > 0 {
                collector.body.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: kept))
            }
            guard kept == length else {
                // Fewer bytes taken than given: libcurl stops reading this answer.
                collector.isBodyCut = true
                return 0
            }
            return length
        }

    /// libcurl's `CURLOPT_HEADERFUNCTION`: one whole header line, CRLF included.
    static let headerCallback:
        @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int =
            { bytes, size, count, context in
                guard let context else { return 0 }
                let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
                let length = size * count
                if let bytes, length > 0 {
                    collector.header(
                        String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self))
                }
                return length
            }

    private func header(_ line: String) {
        receivedAny = true
        if line.hasPrefix("HTTP/") {
            // A new response begins (after an interim 1xx one): only the final one's headers count.
            headers = [:]
            body = []
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        headers[line[..<colon].lowercased()] = Self.trimmed(line[line.index(after: colon)...])
    }

    /// `value` without the blanks and line ends around it (`.whitespacesAndNewlines`): on its bytes when it is ASCII
    /// (every header a store sends), whose only such characters are the space and tab to carriage return; Foundation's
    /// trimming (through NSString) was the dearest part of a purchase client's work on its answer.
    static func trimmed(_ value: Substring) -> String {
        guard value.utf8.allSatisfy({ $0 < 0x80 }) else {
            return value.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte) }
        guard let first = value.utf8.firstIndex(where: { !isBlank($0) }),
            let last = value.utf8.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(Substring(value.utf8[first...last]))
    }
}
