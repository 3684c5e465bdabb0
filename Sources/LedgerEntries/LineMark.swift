/// Where a line of a ledger file starts, and how many lines come before it: a place a read can cut the file, with
/// room for the lines before it known without counting them. A full read of a large file notes where its parts
/// began; the signed checkpoint keeps them, and the next full read of the same file cuts it there (each mark
/// checked to be a line start; counts that do not hold only cost the read its head start).
package struct LineMark: Equatable, Sendable {
    /// The file offset of the line's first byte.
    var offset: Int64
    /// The lines before it in the file.
    var line: Int

    /// Marks written `OFFSET:LINE`, both rising from one to the next; nil when any is not.
    static func list(_ fields: ArraySlice<Substring>) -> [LineMark]? {
        var marks: [LineMark] = []
        for field in fields {
            let parts = field.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let offset = Int64(parts[0]), let line = Int(parts[1]), offset > 0, line > 0,
                offset > (marks.last?.offset ?? 0), line > (marks.last?.line ?? 0)
            else { return nil }
            marks.append(LineMark(offset: offset, line: line))
        }
        return marks.isEmpty ? nil : marks
    }
}
