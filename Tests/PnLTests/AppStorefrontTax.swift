import AccountSummaries
import VoiceDebriefCredit

extension StorefrontTax {
    /// The app's own table, as `credit pnl --summaries` totals with it.
    static let app = StorefrontTax(VoiceDebriefMoney.taxByStorefront)
}
