import SafeText

/// Subjects and texts are data: what a user (or a file someone else wrote) put there is shown, never obeyed. Pure
/// functions for human-readable output: control characters escaped, table cells cut to a width. `--json` output
/// keeps values exact and does not use them.
public enum DisplayText {
    /// `text` with every character a terminal could act on, or that could reorder or hide what is around it, shown
    /// as its code: the C0 controls (U+0000–U+001F: `\n`, `\r`, `\t` and `\e` included), DEL (U+007F), the C1
    /// controls (U+0080–U+009F), the line and paragraph separators, and every format character (the bidirectional
    /// marks, embeddings, overrides and isolates, the zero-width space, the byte-order mark) but the zero-width
    /// joiner and non-joiner. `\n`, `\r` and `\t` read as themselves, others as `[U+001B]`, the form the P&L page
    /// shows them in; everything else (a backslash too) is shown as it is.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\r": out.append(contentsOf: "\\r".unicodeScalars)
            case "\t": out.append(contentsOf: "\\t".unicodeScalars)
            case _ where needsEscape(scalar):
                out.append(contentsOf: code(of: scalar).unicodeScalars)
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// Whether `scalar` is one ``escaped(_:)`` shows escaped: a hidden character (``HiddenCharacter``), tab and
    /// line feed among them here (a terminal would act on them).
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\n" || scalar == "\t" || HiddenCharacter.isHidden(scalar)
    }

    /// `scalar` as its code, `[U+202E]`: the form the P&L page shows it in too.
    public static func code(of scalar: Unicode.Scalar) -> String { HiddenCharacter.code(of: scalar) }

    /// The ellipsis a cut cell ends with.
    public static let ellipsis: Character = "…"

    /// `text` cut to at most `width` characters (grapheme clusters: an accent, an emoji with its modifiers or a
    /// flag is never split), ending with `…` when anything was cut. Escape first (``escaped(_:)``), then cut, so a
    /// control character never reaches the terminal and the cell's width is what is shown. A width below 1 gives
    /// "".
    public static func cell(_ text: String, width: Int) -> String {
        guard width >= 1 else { return "" }
        guard text.count > width else { return text }
        return String(text.prefix(width - 1)) + String(ellipsis)
    }

    /// ``escaped(_:)`` then ``cell(_:width:)``: a value for a table cell of `width` characters.
    public static func tableCell(_ text: String, width: Int) -> String {
        cell(escaped(text), width: width)
    }

    /// An id for a table cell: escaped, and whole up to `width` characters; a longer one (only a file someone
    /// else wrote has one) keeps its end, where a refund step's number is, and loses its middle to `…`.
    public static func idCell(_ id: String, width: Int) -> String {
        let text = escaped(id)
        guard width >= 3, text.count > width else { return text }
        let tail = (width - 1) * 2 / 3
        return String(text.prefix(width - 1 - tail)) + String(ellipsis) + String(text.suffix(tail))
    }
}
