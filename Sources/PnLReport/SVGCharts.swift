import LedgerEntries
import LedgerMoney
import SafeText

/// The page's charts, drawn as inline SVG (no script, no external file). Sizes are in the viewBox's units; the SVG
/// scales to the width of its column, so the same drawing reads on a laptop and on a phone.
enum SVGCharts {
    /// One group of bars of a bar chart: a label and a hint (user-supplied: escaped), and signed values, one per
    /// series.
    struct Row {
        var label: String
        var hint: String? = nil
        var values: [Int64]
    }

    static let width = 400.0
    /// Where the bars end and the column of their figures starts.
    private static let valuesLeft = width - 84
    private static let barHeight = 14.0
    /// Each row's label is a line above its bars, so the bars have the chart's width (and the chart reads on a
    /// phone); the longest drawn whole, a longer one cut, its whole text in the row's tooltip.
    private static let labelCharacters = 50
    private static let labelHeight = 17.0

    /// The balance over time as a line of steps (a balance holds until the next entry moves it, so it is level
    /// between entries and rises or falls at each one, never sloped), with its lowest and highest figures and the
    /// first and last days. One point (an account with one entry, or a period with no change) is drawn as a level
    /// line across the chart with a dot at the point, never as nothing.
    static func balance(_ points: [BalancePoint], caption: String) -> String {
        guard let first = points.first, let last = points.last else {
            return "<p class=\"empty\">No entries in this period.</p>"
        }
        let height = 200.0
        let (left, right, top, bottom) = (78.0, width - 12, 14.0, height - 28)
        let low = min(0, points.map(\.balance.rawValue).min()!)
        let high = max(1, points.map(\.balance.rawValue).max()!)
        let start = first.time.milliseconds
        let span = last.time.milliseconds - start
        func x(_ time: Timestamp) -> Double {
            span == 0 ? left : left + (right - left) * Double(time.milliseconds - start) / Double(span)
        }
        func y(_ value: Int64) -> Double { bottom - (bottom - top) * Double(value - low) / Double(high - low) }
        var coordinates = steps(points.map { (x($0.time), y($0.balance.rawValue)) })
        if span == 0 { coordinates = [(left, y(last.balance.rawValue)), (right, y(last.balance.rawValue))] }
        let line = coordinates.map { "\(format($0.0)),\(format($0.1))" }.joined(separator: " ")
        var svg = open(height: height, label: caption)
        svg += "<line class=\"axis\" x1=\"\(left)\" x2=\"\(right)\" y1=\"\(format(y(0)))\" y2=\"\(format(y(0)))\"/>"
        svg += "<polyline class=\"balance\" points=\"\(line)\"/>"
        let end = span == 0 ? left : x(last.time)
        svg += "<circle class=\"point\" cx=\"\(format(end))\" cy=\"\(format(y(last.balance.rawValue)))\" r=\"4\"/>"
        svg += text(MicroCredits(high).formatted, x: left - 6, y: top + 5, anchor: "end")
        svg += text(MicroCredits(low).formatted, x: left - 6, y: bottom, anchor: "end")
        svg += text(PeopleDate.day(first.time.iso8601) ?? first.time.iso8601, x: left, y: height - 8, anchor: "start")
        if span > 0 {
            svg += text(PeopleDate.day(last.time.iso8601) ?? last.time.iso8601, x: right, y: height - 8, anchor: "end")
        }
        return svg + "</svg>"
    }

    /// The corners of a step line through `points`: from each point level to the next one's time, then up or down
    /// to its figure.
    static func steps(_ points: [(Double, Double)]) -> [(Double, Double)] {
        guard var previous = points.first else { return [] }
        var corners = [previous]
        for point in points.dropFirst() {
            if point.0 != previous.0, point.1 != previous.1 { corners.append((point.0, previous.1)) }
            corners.append(point)
            previous = point
        }
        return corners
    }

    /// Horizontal bars from a zero line, one group of `classes.count` bars per row (negative values to the left),
    /// each bar with its own figure in the column on the right, negative ones too, in its series' colour.
    static func bars(_ rows: [Row], classes: [String], caption: String, formatValue: (Int64) -> String) -> String {
        guard !rows.isEmpty else { return "<p class=\"empty\">Nothing in this period.</p>" }
        let values = rows.flatMap(\.values)
        let low = min(0, values.min()!)
        let high = max(0, values.max()!)
        let range = Double(max(1, high - low))
        let (left, right) = (4.0, valuesLeft - 8)
        func x(_ value: Int64) -> Double { left + (right - left) * Double(value - low) / range }
        let rowHeight = labelHeight + barHeight * Double(classes.count) + 8
        let height = rowHeight * Double(rows.count) + 4
        var svg = open(height: height, label: caption)
        for (index, row) in rows.enumerated() {
            let top = 2 + rowHeight * Double(index)
            svg += label(row, y: top + labelHeight / 2 + 1)
            for (series, value) in row.values.enumerated() {
                let (from, to) = (min(x(0), x(value)), max(x(0), x(value)))
                let barTop = top + labelHeight + barHeight * Double(series)
                let kind = value < 0 ? classes[series] + " negative" : classes[series]
                svg += "<rect class=\"\(kind)\" x=\"\(format(from))\" y=\"\(format(barTop))\" "
                svg += "width=\"\(format(max(1, to - from)))\" height=\"\(format(barHeight - 2))\"/>"
                svg += "<text class=\"value \(kind)\" x=\"\(format(valuesLeft))\" "
                svg += "y=\"\(format(barTop + barHeight / 2 - 1))\" text-anchor=\"start\" dominant-baseline=\"middle\">"
                svg += HTMLText.escape(formatValue(value)) + "</text>"
            }
            // The zero line beside the bars only, not through the label above them.
            let (from, to) = (top + labelHeight - 2, top + labelHeight + barHeight * Double(classes.count))
            svg += "<line class=\"axis\" x1=\"\(format(x(0)))\" x2=\"\(format(x(0)))\" y1=\"\(format(from))\" "
            svg += "y2=\"\(format(to))\"/>"
        }
        return svg + "</svg>"
    }

    /// A row's label above its bars, cut to fit, with its whole text (and hint) as a tooltip.
    private static func label(_ row: Row, y: Double) -> String {
        let shown =
            row.label.count > labelCharacters ? String(row.label.prefix(labelCharacters - 1)) + "…" : row.label
        let tooltip = row.hint.map { "\(row.label) (\($0))" } ?? row.label
        return
            "<text class=\"label\" x=\"4\" y=\"\(format(y))\" text-anchor=\"start\" dominant-baseline=\"middle\">"
            + "<title>\(HTMLText.escape(tooltip))</title>\(HTMLText.escape(shown))</text>"
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
