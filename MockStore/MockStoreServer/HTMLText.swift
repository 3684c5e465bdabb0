/// Text made safe to put in the console's page: every value from the store's data (a customer's name, a product id)
/// goes through here, so data is never markup. (The P&L page has its own in PnLReport, which the mock store does not
/// depend on.)
enum HTMLText {
    /// `text` for an element's content or a quoted attribute: `& < > " '` as entities, and `:` too, so that no text
    /// can put a `http:`, `https:` or `javascript:` reference into the page. Every invisible character that could
    /// reorder or hide what is around it (the controls, the line separators and the format characters but the
    /// zero-width joiner and non-joiner) is shown as its code, `[U+202E]`.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case ":": out += "&#58;"
            case _ where isHidden(scalar): out += "[U+\(hex(scalar.value))]"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A value from data as element content, escaped and isolated in `<bdi>`: right-to-left words in it are laid out
    /// on their own and cannot reorder the words around it.
    static func isolated(_ text: String) -> String { "<bdi>" + escape(text) + "</bdi>" }

    /// Whether `scalar` is shown as its code rather than as itself.
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
}
