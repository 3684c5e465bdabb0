/// Counts a first read's entries while the read is still parsing: each stretch is handed over, in file order, once it
/// and every stretch before it are parsed, so the count runs beside the parsing on the other cores instead of on one
/// core after it (``ParallelLines``). The stretches come from several threads, one at a time.
///
/// `@unchecked Sendable`: ``count(_:range:hashes:)`` and ``reset()`` are called under the parallel read's lock, one
/// at a time, and ``counting`` is read only after the read has returned.
final class EntryCounter: @unchecked Sendable {
    private(set) var counting: LedgerCounting
    /// How many entries, from the first, have been counted.
    private(set) var counted = 0
    private let file: String
    private let firstLine: Int

    /// Counting from nothing: the entries of `file`, the first on line `firstLine`, are the first read.
    init(file: String, firstLine: Int) {
        self.file = file
        self.firstLine = firstLine
        counting = EntryCounter.empty(file: file, firstLine: firstLine)
    }

    /// Counts `list[range]`, which starts where the last stretch ended; `hashes[position]` is each id's hash.
    func count(_ list: UnsafeBufferPointer<LedgerEntry>, range: Range<Int>, hashes: UnsafePointer<UInt64>) {
        precondition(range.lowerBound == counted, "a stretch was counted out of order")
        counting.count(list, range: range, hashes: hashes)
        counted = range.upperBound
    }

    /// Makes room for about `count` entries, so the index is not rebuilt as it fills.
    func reserve(_ count: Int) {
        counting.reserve(count)
    }

    /// Forgets what was counted (the read starts again).
    func reset() {
        counting = EntryCounter.empty(file: file, firstLine: firstLine)
        counted = 0
    }

    private static func empty(file: String, firstLine: Int) -> LedgerCounting {
        LedgerCounting(
            index: EntryIDIndex(), positions: [], tallies: [], codes: FeatureCodes(), sum: .zero, references: [:],
            refundSteps: [:], opening: nil, file: file, firstLine: firstLine, first: 0)
    }
}
