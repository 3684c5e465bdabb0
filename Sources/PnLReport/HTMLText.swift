/// Text made safe to put in the page: every user-supplied string (a subject, a decline's words, a feature key) goes
/// through here.
enum HTMLText {
    /// `text` for an element's content or a quoted attribute: `& < > " '` as entities, and `:` too, so that no
    /// text can put a `http:` or `https:` reference (or a `javascript:` one) into the page. Every invisible
    /// character that could reorder or hide what is around it (see ``isHidden(_:)``) is shown as its code,
    /// `[U+202E]`, so a subject can neither turn the page's words around nor hide what it holds.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case ":": out += "&#58;"
            case _ where isHidden(character): out += "[U+\(hex(character.value))]"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// A value from data as element content, escaped (``escape(_:)``) and isolated in `<bdi>`: right-to-left words
    /// in it are laid out on their own and cannot reorder the words around it.
    static func isolated(_ text: String) -> String { "<bdi>" + escape(text) + "</bdi>" }

    /// Whether `scalar` is shown as its code: the controls (C0 but tab and line feed, DEL, C1), the line and
    /// paragraph separators, and every format character (the bidirectional marks, embeddings, overrides and
    /// isolates U+200E, U+200F, U+202A–U+202E, U+2066–U+2069, U+061C, the zero-width space, the word joiner, the
    /// byte-order mark, tags) except the zero-width joiner and non-joiner, which emoji and some scripts need and
    /// which reorder nothing.
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x200C, 0x200D: return false
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: return true
        default: return scalar.properties.generalCategory == .format
        }
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

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
