import Platform

/// One row of the bench's table: a figure, its target, the baseline measured in the same run, their ratio and
/// whether the target is met.
struct ResultRow {
    var what: String
    var figure: String
    var target: String
    var baseline: String = "-"
    var ratio: String = "-"
    /// "yes", "no", or "-" where the row has no target of its own (reported only).
    var met: String

    static func skipped(_ what: String, target: String, reason: String) -> ResultRow {
        ResultRow(what: what, figure: "skipped: \(reason)", target: target, met: "-")
    }
}

/// The table printed at the end, in Markdown so it can go into BENCHMARKS.md as it is.
struct ResultTable {
    var rows: [ResultRow] = []
    var notes: [String] = []

    mutating func add(_ row: ResultRow) {
        rows.append(row)
        log(
            "  \(row.what): \(row.figure)  [target \(row.target); baseline \(row.baseline); ratio \(row.ratio); met \(row.met)]"
        )
    }

    func render() -> String {
        let header = ["what", "figure", "target", "baseline (same run)", "ratio", "met"]
        let cells = rows.map { [$0.what, $0.figure, $0.target, $0.baseline, $0.ratio, $0.met] }
        var widths = header.map(\.count)
        for row in cells {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ row: [String]) -> String {
            "| "
                + row.enumerated().map { $1 + String(repeating: " ", count: widths[$0] - $1.count) }.joined(
                    separator: " | ") + " |"
        }
        var text = line(header) + "\n"
        text += "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|\n"
        for row in cells { text += line(row) + "\n" }
        if !notes.isEmpty { text += "\n" + notes.map { "- " + $0 }.joined(separator: "\n") + "\n" }
        return text
    }
}

/// Formatting for the table.
enum Format {
    /// `text` without the whitespace (newlines too) at its ends: a child process's output, as a figure.
    static func trimmed(_ text: String) -> String {
        var text = Substring(text)
        while let last = text.last, last.isWhitespace { text.removeLast() }
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        return String(text)
    }

    static func number(_ value: Double, decimals: Int = 0) -> String {
        guard value.isFinite else { return "n/a" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = decimals == 0 ? String(Int64(rounded)) : String(rounded)
        if decimals > 0, let dot = text.firstIndex(of: ".") {
            let fraction = text[text.index(after: dot)...].count
            if fraction < decimals { text += String(repeating: "0", count: decimals - fraction) }
        }
        // Thousands separators on the whole part.
        let negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        let parts = text.split(separator: ".", maxSplits: 1)
        var whole = Array(parts[0])
        var grouped = ""
        while whole.count > 3 {
            grouped = "," + String(whole.suffix(3)) + grouped
            whole.removeLast(3)
        }
        grouped = String(whole) + grouped
        return (negative ? "-" : "") + grouped + (parts.count > 1 ? "." + parts[1] : "")
    }

    /// Seconds as µs, ms or s.
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "n/a" }
        if seconds < 1e-3 { return number(seconds * 1e6, decimals: 0) + " µs" }
        if seconds < 1 { return number(seconds * 1e3, decimals: seconds < 0.01 ? 2 : 1) + " ms" }
        return number(seconds, decimals: 2) + " s"
    }

    static func megabytes(_ bytes: Int) -> String { number(Double(bytes) / 1_048_576, decimals: 0) + " MiB" }

    /// `a / b` as "1.23x".
    static func ratio(_ a: Double, _ b: Double) -> String {
        guard a.isFinite, b.isFinite, b > 0 else { return "-" }
        return number(a / b, decimals: 2) + "x"
    }

    static func yes(_ met: Bool) -> String { met ? "yes" : "no" }
}

/// Progress, to standard error (the table goes to standard output).
func log(_ text: String) {
    let bytes = Array((text + "\n").utf8)
    bytes.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress!, $0.count) }
}
