import Dispatch
import LedgerEntries

extension VerifierCrossIndex {
    /// Every line's verdict for one file's lines, in order: whether each is the first with its id, and the
    /// duplicates and forks found (by line index, in line order).
    struct Verdicts {
        var first: [Bool]
        var duplicates: [(index: Int, problem: VerificationProblem)] = []
        var forks: [(index: Int, problem: VerificationProblem)] = []

        /// The verdict on line `index`, taken in line order: `cursor` walks the duplicates and forks.
        func verdict(_ index: Int, cursor: inout (duplicate: Int, fork: Int)) -> Verdict {
            var verdict = Verdict(isFirstWithID: first[index])
            if cursor.duplicate < duplicates.count, duplicates[cursor.duplicate].index == index {
                verdict.duplicate = duplicates[cursor.duplicate].problem
                cursor.duplicate += 1
            }
            if cursor.fork < forks.count, forks[cursor.fork].index == index {
                verdict.fork = forks[cursor.fork].problem
                cursor.fork += 1
            }
            return verdict
        }
    }

    /// ``check(line:of:hash:)`` of every line of `lines` in order (`hashes` their ids' hashes, or empty): the ids
    /// on one thread and the places on another, at once. What each line is found to be is what checking them one
    /// by one finds: the two are kept apart, and each sees the lines in order.
    ///
    /// `goodFileOf`: the device when the lines are a good file's (``LedgerVerifier/cleanChain(of:device:macValid:)``),
    /// whose places are then recorded at once when its device has none yet.
    mutating func checkAll(_ lines: Lines, hashes: UnsafeBufferPointer<UInt64>, goodFileOf device: String? = nil)
        -> Verdicts
    {
        var first = [Bool](repeating: false, count: lines.lines.count)
        var duplicates: [(index: Int, problem: VerificationProblem)] = []
        var forks: [(index: Int, problem: VerificationProblem)] = []
        first.withUnsafeMutableBufferPointer { first in
            withUnsafeMutablePointer(to: &ids) { ids in
                withUnsafeMutablePointer(to: &places) { places in
                    withUnsafeMutablePointer(to: &duplicates) { duplicates in
                        withUnsafeMutablePointer(to: &forks) { forks in
                            let work = ParallelChecks(
                                ids: ids, places: places, first: first.baseAddress!, duplicates: duplicates,
                                forks: forks, lines: lines, hashes: hashes, goodFileOf: device)
                            DispatchQueue.concurrentPerform(iterations: 2) { task in
                                if task == 0 { work.checkIDs() } else { work.checkPlaces() }
                            }
                        }
                    }
                }
            }
        }
        return Verdicts(first: first, duplicates: duplicates, forks: forks)
    }
}

/// The two halves of ``VerifierCrossIndex/checkAll(_:hashes:)``. `@unchecked Sendable`: the ids' thread touches only
/// the ids, `first` and `duplicates`, the places' thread only the places and `forks`, and the lines are only read;
/// nothing is read by the caller before `concurrentPerform` returns.
private struct ParallelChecks: @unchecked Sendable {
    let ids: UnsafeMutablePointer<VerifierCrossIndex.IDs>
    let places: UnsafeMutablePointer<VerifierCrossIndex.Places>
    let first: UnsafeMutablePointer<Bool>
    let duplicates: UnsafeMutablePointer<[(index: Int, problem: VerificationProblem)]>
    let forks: UnsafeMutablePointer<[(index: Int, problem: VerificationProblem)]>
    let lines: VerifierCrossIndex.Lines
    let hashes: UnsafeBufferPointer<UInt64>
    let goodFileOf: String?

    func checkIDs() {
        let count = lines.lines.count
        ids.pointee.reserve(count)
        var start = 0
        while start < count {
            // Sixteen lines at a time: their ids' slots read first, so the index's cache misses overlap.
            let end = Swift.min(start + 16, count)
            if !hashes.isEmpty { for index in start..<end { ids.pointee.prefetch(hash: hashes[index]) } }
            for index in start..<end {
                let hash = hashes.isEmpty ? lines.lines[index].entry!.idHash : hashes[index]
                let verdict = ids.pointee.check(line: index, of: lines, hash: hash)
                first[index] = verdict.isFirstWithID
                if let duplicate = verdict.duplicate { duplicates.pointee.append((index, duplicate)) }
            }
            start = end
        }
    }

    func checkPlaces() {
        if let device = goodFileOf,
            places.pointee.recordFirstRun(of: device, lines: lines.lines.count, file: Int32(lines.number))
        {
            return
        }
        for index in 0..<lines.lines.count {
            if let fork = places.pointee.check(line: index, of: lines) { forks.pointee.append((index, fork)) }
        }
    }
}
