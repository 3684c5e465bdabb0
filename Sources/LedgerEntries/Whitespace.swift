/// Whitespace at the ends of a text a person or an older version may have written (a device id, a decline's words).
enum Whitespace {
    /// `text` without the whitespace (newlines too) at its start and its end.
    static func trimmed(_ text: String) -> String {
        var text = Substring(text)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
