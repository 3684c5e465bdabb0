import CreditLedger

/// The page's charts, drawn as inline SVG (no script, no external file). Sizes are in the viewBox's units; the SVG
/// scales to the width of its column, so the same drawing reads on a laptop and on a phone.
enum SVGCharts {
    /// One bar of a bar chart: a label (user-supplied: escaped) and signed values, one per series.
    struct Row {
        var label: String
        var values: [Int64]
    }

    static let width = 480.0
    private static let labelWidth = 150.0
    private static let rowHeight = 30.0

    /// The balance over time as a line, with its lowest and highest figures and the first and last days.
    static func balance(_ points: [BalancePoint], caption: String) -> String {
        guard let first = points.first, let last = points.last else {
            return "<p class=\"empty\">No entries in this period.</p>"
        }
        let height = 200.0
        let (left, right, top, bottom) = (64.0, width - 12, 14.0, height - 28)
        let low = min(0, points.map(\.balance.rawValue).min()!)
        let high = max(1, points.map(\.balance.rawValue).max()!)
        let start = first.time.milliseconds
        let span = max(1, last.time.milliseconds - start)
        func x(_ time: Timestamp) -> Double { left + (right - left) * Double(time.milliseconds - start) / Double(span) }
        func y(_ value: Int64) -> Double { bottom - (bottom - top) * Double(value - low) / Double(high - low) }
        let line = points.map { "\(format(x($0.time))),\(format(y($0.balance.rawValue)))" }.joined(separator: " ")
        var svg = open(height: height, label: caption)
        svg += "<line class=\"axis\" x1=\"\(left)\" x2=\"\(right)\" y1=\"\(format(y(0)))\" y2=\"\(format(y(0)))\"/>"
        svg += "<polyline class=\"balance\" points=\"\(line)\"/>"
        svg += text(MicroCredits(high).formatted, x: left - 6, y: top + 5, anchor: "end")
        svg += text(MicroCredits(low).formatted, x: left - 6, y: bottom, anchor: "end")
        svg += text(String(first.time.iso8601.prefix(10)), x: left, y: height - 8, anchor: "start")
        svg += text(String(last.time.iso8601.prefix(10)), x: right, y: height - 8, anchor: "end")
        return svg + "</svg>"
    }

    /// Horizontal bars from a zero line, one group of `classes.count` bars per row (negative values to the left).
    static func bars(_ rows: [Row], classes: [String], caption: String, formatValue: (Int64) -> String) -> String {
        guard !rows.isEmpty else { return "<p class=\"empty\">Nothing in this period.</p>" }
        let values = rows.flatMap(\.values)
        let low = min(0, values.min()!)
        let high = max(0, values.max()!)
        let range = Double(max(1, high - low))
        let (left, right) = (labelWidth, width - 70)
        func x(_ value: Int64) -> Double { left + (right - left) * Double(value - low) / range }
        let barHeight = (rowHeight - 8) / Double(classes.count)
        let height = rowHeight * Double(rows.count) + 8
        var svg = open(height: height, label: caption)
        for (index, row) in rows.enumerated() {
            let top = 4 + rowHeight * Double(index)
            svg += text(row.label, x: left - 8, y: top + rowHeight / 2 + 1, anchor: "end")
            for (series, value) in row.values.enumerated() {
                let (from, to) = (min(x(0), x(value)), max(x(0), x(value)))
                let barTop = top + 2 + barHeight * Double(series)
                let kind = value < 0 ? classes[series] + " negative" : classes[series]
                svg += "<rect class=\"\(kind)\" x=\"\(format(from))\" y=\"\(format(barTop))\" "
                svg += "width=\"\(format(max(1, to - from)))\" height=\"\(format(barHeight - 1))\"/>"
            }
            svg += text(formatValue(row.values[0]), x: right + 4, y: top + rowHeight / 2 + 1, anchor: "start")
        }
        svg +=
            "<line class=\"axis\" x1=\"\(format(x(0)))\" x2=\"\(format(x(0)))\" y1=\"2\" y2=\"\(format(height - 2))\"/>"
        return svg + "</svg>"
    }

    private static func open(height: Double, label: String) -> String {
        "<svg viewBox=\"0 0 \(format(width)) \(format(height))\" role=\"img\" aria-label=\"\(HTMLText.escape(label))\">"
    }

    private static func text(_ content: String, x: Double, y: Double, anchor: String) -> String {
        "<text x=\"\(format(x))\" y=\"\(format(y))\" text-anchor=\"\(anchor)\" dominant-baseline=\"middle\">"
            + HTMLText.escape(content) + "</text>"
    }

    /// A coordinate with one decimal.
    static func format(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        let whole = Int(tenths) / 10
        let fraction = abs(Int(tenths)) % 10
        return fraction == 0 ? "\(whole)" : "\(tenths < 0 && whole == 0 ? "-" : "")\(whole).\(fraction)"
    }
}
