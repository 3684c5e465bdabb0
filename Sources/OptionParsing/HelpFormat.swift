/// How help text is laid out: 116 columns, two-column lists, numbers with thousands separators.
enum HelpFormat {
    static let width = 116
    /// The widest left column of a list; a longer entry puts its text on the next line.
    static let maximumLeftColumn = 24

    /// `text` without the spaces at its end (a column left empty).
    static func trimmingTrailingSpaces(_ text: String) -> String {
        var text = text
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }

    /// A range as messages say it (`from 1 to 360,000`, `of at least 100`), or nil for any number at all.
    static func describe(_ range: ClosedRange<Int64>) -> String? {
        switch (range.lowerBound, range.upperBound) {
        case (.min, .max): return nil
        case (let low, .max): return "of at least \(number(low))"
        case (.min, let high): return "of at most \(number(high))"
        case (let low, let high): return "from \(number(low)) to \(number(high))"
        }
    }

    /// A range as help says it after an option: `1 to 360,000`, `at least 100`.
    static func helpNote(_ range: ClosedRange<Int64>) -> String? {
        guard let text = describe(range) else { return nil }
        if text.hasPrefix("from ") { return String(text.dropFirst(5)) }
        return text.hasPrefix("of ") ? String(text.dropFirst(3)) : text
    }

    /// `360,000`; numbers under 10,000 without a separator, as prose writes them.
    static func number(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        guard digits.count > 4 else { return String(value) }
        var grouped = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }

    /// `text` broken into lines of at most `width` columns at spaces; its own line breaks are kept.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                if !line.isEmpty, line.count + 1 + word.count > width {
                    lines.append(line)
                    line = ""
                }
                line += (line.isEmpty ? "" : " ") + word
            }
            lines.append(line)
        }
        return lines
    }

    /// Items (`credit`, `charge`, `KEY`, `[--json]`) joined by spaces after `prefix`, continued lines indented
    /// under the first item after the command's name.
    static func synopsis(_ items: [String], prefix: String, indent: Int) -> String {
        var lines: [String] = []
        var line = prefix
        for item in items {
            if line.count > indent, line.count + 1 + item.count > width {
                lines.append(line)
                line = String(repeating: " ", count: indent)
            }
            line += (line.hasSuffix(" ") || line.isEmpty ? "" : " ") + item
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// Rows of a name and what it does, indented by two, the text in one column.
    static func columns(_ rows: [(String, String)]) -> String {
        let left = rows.map(\.0.count).filter { $0 <= maximumLeftColumn }.max() ?? 0
        let column = 2 + left + 2
        let pad = String(repeating: " ", count: column)
        var lines: [String] = []
        for (name, text) in rows {
            let wrapped = wrap(text, width: width - column)
            if name.count > left {
                lines.append("  " + name)
                lines += wrapped.filter { !$0.isEmpty }.map { pad + $0 }
            } else {
                let first = "  " + name + String(repeating: " ", count: left - name.count + 2) + (wrapped.first ?? "")
                lines.append(HelpFormat.trimmingTrailingSpaces(first))
                lines += wrapped.dropFirst().map { pad + $0 }
            }
        }
        return lines.joined(separator: "\n")
    }
}
