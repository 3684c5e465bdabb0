import CreditLedger
import Testing
import VoiceDebriefCredit

/// The owner's money settings, in one place beside the costs: every figure a placeholder, the Small Business
/// Program's 15% with the standard 30% named, GBR's 20% VAT, and any other storefront's tax unknown (never guessed).
@Suite struct VoiceDebriefMoneyTests {
    @Test func theSettingsAreTheOwnersPlaceholders() {
        let settings = VoiceDebriefMoney()
        #expect(settings.isPlaceholder)
        #expect(settings.commission == CommissionRate(name: "small-business", basisPoints: 1500))
        #expect(CommissionRate.standard == CommissionRate(name: "standard", basisPoints: 3000))
        #expect(VoiceDebriefMoney(commission: .standard).commission.basisPoints == 3000)
        #expect(settings.taxBasisPoints(storefront: "GBR") == 2000)
        for storefront in ["USA", "FRA", "DEU", "JPN", "gbr", ""] {
            #expect(settings.taxBasisPoints(storefront: storefront) == nil, "\(storefront): tax unknown")
        }
    }

    /// The app's £5.00 pack in GBR, split by the settings: what the README and the P&L say.
    @Test func theAppsPackInTheUKComesToTheOwnersFigures() throws {
        let receipt = SaleReceipt(priceMilliunits: 5_000, currency: "GBP", storefront: "GBR")
        let line = try MoneyLine(sale: receipt, settings: VoiceDebriefMoney())
        #expect(line.taxKnown && line.currency == "GBP")
        #expect(line.split == MoneySplit(gross: 5_000_000, tax: 833_333, commission: 625_000, proceeds: 3_541_667))
        let abroad = try MoneyLine(
            sale: SaleReceipt(priceMilliunits: 4_990, currency: "USD", storefront: "USA"), settings: VoiceDebriefMoney()
        )
        #expect(!abroad.taxKnown && abroad.split == MoneySplit(gross: 4_990_000, tax: 0, commission: 0, proceeds: 0))
    }
}
