import SafeText

/// What only the P&L page needs beyond ``HTMLText/escape(_:)`` (shared with the mock store's console): its JSON
/// block made safe.
extension HTMLText {
    /// JSON text for a `<script type="application/json">` block: `<`, `>` and `&` as `\u` escapes (they occur only
    /// inside strings, where the escape means the same), so nothing can close the block; and the colon of a
    /// `http:`/`https:` inside a string as `\u003a`, so the page holds no network reference.
    static func scriptJSON(_ json: String) -> String {
        var out = replacingEvery("<", in: json, with: "\\u003c")
        out = replacingEvery(">", in: out, with: "\\u003e")
        out = replacingEvery("&", in: out, with: "\\u0026")
        for scheme in ["http:", "https:"] { out = escapingColon(ofEvery: scheme, in: out) }
        return out
    }

    /// `text` with every `target` as `replacement`.
    private static func replacingEvery(_ target: Character, in text: String, with replacement: String) -> String {
        var out = ""
        for character in text { if character == target { out += replacement } else { out.append(character) } }
        return out
    }

    /// `text` with every `scheme` (any case, ending in `:`) with its colon as `\u003a`.
    private static func escapingColon(ofEvery scheme: String, in text: String) -> String {
        let pattern = Array(scheme.lowercased().utf8)
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if index + pattern.count <= bytes.count,
                zip(bytes[index..<index + pattern.count], pattern).allSatisfy({ lower($0) == $1 })
            {
                out += bytes[index..<index + pattern.count - 1]
                out += Array("\\u003a".utf8)
                index += pattern.count
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func lower(_ byte: UInt8) -> UInt8 { (byte >= 65 && byte <= 90) ? byte + 32 : byte }
}
