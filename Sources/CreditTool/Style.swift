import Platform

/// Colour for a terminal: only when standard output is a terminal, never with `NO_COLOR` set, never for `TERM=dumb`.
struct Style {
    let enabled: Bool

    /// This run's: its environment and whether its output is a terminal.
    static var detected: Style {
        let console = Console.current
        let noColor = console.environment["NO_COLOR"] ?? ""
        let term = console.environment["TERM"] ?? ""
        return Style(enabled: console.outputIsTerminal && noColor.isEmpty && term != "dumb")
    }

    private func wrap(_ text: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    /// The warmer colour of a balance below zero.
    func warm(_ text: String) -> String { wrap(text, "38;5;208") }
    func good(_ text: String) -> String { wrap(text, "32") }
    func bad(_ text: String) -> String { wrap(text, "31") }
}

/// Lays out rows in columns; the first row is the heading.
func table(_ rows: [[String]], rightAligned: Set<Int> = [], indent: String = "  ") -> String {
    guard let first = rows.first else { return "" }
    var widths = Array(repeating: 0, count: first.count)
    for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
    return rows.map { row in
        indent
            + row.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                return rightAligned.contains(index) ? padding + cell : (index == row.count - 1 ? cell : cell + padding)
            }.joined(separator: "  ")
    }.joined(separator: "\n")
}
