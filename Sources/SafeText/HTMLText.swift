/// Text made safe to put in a page (the P&L page, the mock store's console): every value from data (a subject, a
/// product id, a customer's name) goes through here, so data is never markup.
public enum HTMLText {
    /// `text` for an element's content or a quoted attribute: `& < > " '` as entities, and `:` too, so that no text
    /// can put a `http:`, `https:` or `javascript:` reference into the page. Every character that could reorder or
    /// hide what is around it (``HiddenCharacter``) is shown as its code, `[U+202E]`.
    public static func escape(_ text: String) -> String {
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
            case _ where HiddenCharacter.isHidden(scalar): out += HiddenCharacter.code(of: scalar)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A value from data as element content, escaped (``escape(_:)``) and isolated in `<bdi>`: right-to-left words in
    /// it are laid out on their own and cannot reorder the words around it.
    public static func isolated(_ text: String) -> String { "<bdi>" + escape(text) + "</bdi>" }
}
