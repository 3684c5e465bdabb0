import CreditLedger
import Payments

/// The app's credit, put together: the ledger in a data directory, the price list, and a meter for one session.
public enum CreditApp {
    /// Opens (creating if needed) the ledger in `directory`.
    public static func openLedger(directory: String, clock: any LedgerClock, ids: any IDSource) throws -> Ledger {
        try Ledger(directory: directory, clock: clock, ids: ids)
    }

    /// A meter for one app session, charging the app's prices.
    public static func meter(for ledger: Ledger, ids: any IDSource) -> Meter {
        Meter(ledger: ledger, prices: VoiceDebriefPrices(), ids: ids)
    }
}
