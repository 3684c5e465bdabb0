import CreditLedger
import Foundation
import Payments
import TopUp

/// The app's credit, put together: the signed ledger in a data directory, the price list, a meter for one session.
public enum CreditApp {
    /// Opens (or creates) the signed ledger in `directory`.
    public static func openLedger(directory: String, clock: any LedgerClock, ids: any IDSource) throws -> Ledger {
        try Ledger.openSigned(directory: directory, clock: clock, ids: ids)
    }

    /// Opens (or creates) the signed ledger in `directory` and runs `body` with it under the one lock of the open:
    /// a command that opens, changes and exits takes the `flock` once.
    public static func withLedger<T>(
        directory: String, clock: any LedgerClock, ids: any IDSource, _ body: (Ledger) throws -> T
    ) throws -> T {
        try Ledger.openSigned(directory: directory, clock: clock, ids: ids, whileLocked: body)
    }

    /// A meter for one app session, charging the app's prices.
    public static func meter(for ledger: Ledger, ids: any IDSource) -> Meter {
        Meter(ledger: ledger, prices: VoiceDebriefPrices(), ids: ids)
    }

    /// The top-up flow for the store configured in `directory`, with the app's packs and bundle id; a store over
    /// the network waits `requestTimeout` seconds for each answer (its default when nil).
    public static func topUpFlow(
        ledger: Ledger, configuration: StoreConfiguration, directory: String, requestTimeout: TimeInterval? = nil,
        customer: String? = ProcessInfo.processInfo.environment["MOCKSTORE_CUSTOMER"]
    ) throws(StoreConfigurationError) -> TopUpFlow {
        TopUpFlow(
            ledger: ledger,
            store: try provider(
                configuration, directory: directory, requestTimeout: requestTimeout, customer: customer),
            verifier: try configuration.verifier(in: directory, defaultBundleID: VoiceDebriefStore.bundleID),
            catalogue: VoiceDebriefStore.packs, bundleID: configuration.bundleID(default: VoiceDebriefStore.bundleID))
    }

    /// Verifies the ledger in `ledger`'s directory (or `files`), checking receipts against the store root or
    /// secret kept there.
    public static func verify(_ ledger: Ledger, files: [String]?) throws -> VerificationReport {
        let audit = try receiptAudit(in: ledger.directory)
        return try ledger.verify(files: files, receiptCheck: audit.map { audit in { audit.problem(with: $0) } })
    }

    /// Verifies the ledger files in `directory` (or `files`) without opening the ledger, for one that will not open
    /// (a damaged line in the middle); `device`'s head must be there.
    public static func verify(directory: String, files: [String]?, requiringHeadOf device: String?) throws
        -> VerificationReport
    {
        let audit = try receiptAudit(in: directory)
        return try LedgerVerifier.verify(
            directory: directory, files: files, requiringHeadOf: device,
            receiptCheck: audit.map { audit in { audit.problem(with: $0) } })
    }

    /// The audit of receipts kept in `directory`, or nil when no root or secret was ever pinned there.
    private static func receiptAudit(in directory: String) throws -> ReceiptAudit? {
        try StoreConfiguration.receiptVerifier(in: directory, defaultBundleID: VoiceDebriefStore.bundleID).map {
            ReceiptAudit(verifier: $0, catalogue: VoiceDebriefStore.packs)
        }
    }
}
