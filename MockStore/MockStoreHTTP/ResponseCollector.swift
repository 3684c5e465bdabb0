import Foundation

/// What libcurl hands over of one response: header lines and body bytes, through C callbacks whose context is
/// this object.
final class ResponseCollector {
    private(set) var headers: [String: String] = [:]
    private(set) var body: [UInt8] = []
    /// Whether any byte of a response arrived (a status line at least).
    private(set) var receivedAny = false

    /// libcurl's `CURLOPT_WRITEFUNCTION`: a piece of the body.
    static let bodyCallback: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int =
        { bytes, size, count, context in
            guard let context else { return 0 }
            let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            if let bytes, length > 0 {
                collector.body.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: length))
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
        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
            in: .whitespacesAndNewlines)
    }
}
