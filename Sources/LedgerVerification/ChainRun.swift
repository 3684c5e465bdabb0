import LedgerEntries

/// A run of lines, in file order, that reads as a good file's lines do (``LedgerVerifier/cleanChain(of:device:macValid:)``):
/// every line an entry of one device whose MAC holds and whose `prev` and `mac` are digests, each linked to the one
/// before it (its `prev` the one before's `mac`, its sequence the next). The verifier's reading threads each make
/// one for their part, and the parts' runs are joined end to end: the chain of a million lines is then checked where
/// the lines are read, on every core, and not walked again on one.
struct ChainRun: Sendable {
    /// The device of the run's entries.
    let device: String
    /// The first entry's sequence and `prev`.
    let first: (sequence: Int64, prev: ChainDigest)
    /// The last entry's sequence and `mac`.
    private(set) var last: (sequence: Int64, mac: ChainDigest)

    /// A run of the one line whose entry has these fields (and whose MAC holds).
    init(device: String, sequence: Int64, prev: ChainDigest, mac: ChainDigest) {
        self.device = device
        first = (sequence, prev)
        last = (sequence, mac)
    }

    /// The run with the next line after it, whose entry has these fields (and whose MAC holds); nil when that line
    /// does not carry it on.
    func extended(device: String, sequence: Int64, prev: ChainDigest, mac: ChainDigest) -> ChainRun? {
        guard device == self.device, last.sequence < Int64.max, sequence == last.sequence + 1, prev == last.mac else {
            return nil
        }
        var run = self
        run.last = (sequence, mac)
        return run
    }

    /// `runs` (each part's, in file order; nil where a part's lines do not make one) as one run, or nil when they
    /// do not carry each other on.
    static func joined(_ runs: [ChainRun?]) -> ChainRun? {
        guard var whole = runs.first ?? nil else { return nil }
        for run in runs.dropFirst() {
            guard let run, run.device == whole.device, whole.last.sequence < Int64.max,
                run.first.sequence == whole.last.sequence + 1, run.first.prev == whole.last.mac
            else { return nil }
            whole.last = run.last
        }
        return whole
    }

    /// The `mac` of the last line when the run is a whole file's good chain for `device` (from sequence 1, chained
    /// from zero), else nil.
    func end(ofFileOf device: String) -> ChainDigest? {
        guard device == self.device, first.sequence == 1, first.prev == .zero else { return nil }
        return last.mac
    }

    /// A part's run as its lines are read: nil once a line does not carry it on (and from then on).
    struct Tracker {
        private(set) var run: ChainRun?
        private var broken = false

        /// The next line: its entry's fields when it parsed, with a MAC that holds and `prev` and `mac` digests;
        /// nil for any other line.
        mutating func note(_ line: (device: String, sequence: Int64, prev: ChainDigest, mac: ChainDigest)?) {
            guard !broken else { return }
            guard let line else {
                broken = true
                run = nil
                return
            }
            if let run {
                self.run = run.extended(device: line.device, sequence: line.sequence, prev: line.prev, mac: line.mac)
                broken = self.run == nil
            } else {
                run = ChainRun(device: line.device, sequence: line.sequence, prev: line.prev, mac: line.mac)
            }
        }
    }
}
