import CreditLedger
import DurableFiles
import Signing

/// One device file's verify as `credit verify` makes it after its open: the checkpoint's line marks read, the file
/// read in parts on every core (each line parsed and its MAC checked), then checked (chain, sequences, ids, the
/// balance, the signed head). Made once, run as often as a row wants.
struct OneFileVerify {
    let directory: String
    let path: String
    let device: String
    let keys: LedgerKeys
    let heads: [String: SignedHead]
    let verifier: LedgerVerifier

    /// The verify of `path`, the device file of the ledger in `directory`.
    init(directory: String, path: String) throws {
        self.directory = directory
        self.path = path
        device = String(Files.lastComponent(of: path).dropLast(6))
        keys = try LedgerKeys.load(from: directory)
        heads = [device: try SignedHead.read(in: directory, device: device)].compactMapValues { $0 }
        verifier = LedgerVerifier(macKey: keys.macKey, headPublicKey: keys.headKey.publicKey, receiptCheck: nil)
    }

    /// Runs it once: the report, how long the read took, and what was read (handed out, so that freeing it is not
    /// timed: a `credit verify` exits instead).
    func run() throws -> (report: VerificationReport, readTime: Double, read: LedgerVerifier.ReadFile) {
        let start = Measure.now()
        let hints = LedgerCheckpoint.lineHints(in: directory, macKey: keys.macKey)[Files.lastComponent(of: path)]
        let read = try LedgerVerifier.read(path, macKey: keys.macKey, hints: hints)
        let readTime = Measure.now() - start
        let report = try verifier.verify(read: [read], heads: heads, requireHeads: [device])
        return (report, readTime, read)
    }
}
