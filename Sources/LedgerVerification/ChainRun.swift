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

    /// Whether the line after the run's last, whose entry has these fields, carries it on.
    @inline(__always)
    func carriesOn(device: String, sequence: Int64, prev: ChainDigest) -> Bool {
        device == self.device && last.sequence < Int64.max && sequence == last.sequence + 1 && prev == last.mac
    }

    /// `runs` (each part's, in file order; nil where a part's lines do not make one) as one run, or nil when they
    /// do not carry each other on.
    static func joined(_ runs: [ChainRun?]) -> ChainRun? {
        guard var whole = runs.first ?? nil else { return nil }
        for run in runs.dropFirst() {
            guard let run, whole.carriesOn(device: run.device, sequence: run.first.sequence, prev: run.first.prev)
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

        /// The next line, whose entry parsed, whose MAC holds, and whose `prev` and `mac` are digests. The run is
        /// carried on in place (no copy of it, its device retained and released, per line).
        mutating func note(device: String, sequence: Int64, prev: ChainDigest, mac: ChainDigest) {
            guard !broken else { return }
            guard run != nil else {
                run = ChainRun(device: device, sequence: sequence, prev: prev, mac: mac)
                return
            }
            guard run!.carriesOn(device: device, sequence: sequence, prev: prev) else {
                noteBroken()
                return
            }
            run!.last = (sequence, mac)
        }

        /// The next line is any other line: the part's lines make no run.
        mutating func noteBroken() {
            broken = true
            run = nil
        }
    }
}
