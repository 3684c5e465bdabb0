import CreditLedger

/// The owner's money settings, beside ``VoiceDebriefCosts``: what Apple keeps of a top-up and the sales tax included
/// in its price in each storefront, for the money section of the P&L (`credit pnl`). The owner's view; the user's
/// credit screen never shows it.
///
/// Every figure is a placeholder until the Paid Applications Agreement is signed and the first statement read:
///
/// - the commission is the App Store Small Business Program's 15% (``CommissionRate/smallBusiness``); the standard
///   30% (``CommissionRate/standard``) is the named alternative, for when proceeds pass the programme's threshold;
/// - the tax is the sales tax included in the price, by storefront: GBR 20% VAT. A storefront not in the table is
///   "tax unknown": its top-ups are counted as paid, in their own currency, and their proceeds are not guessed.
///
/// Apple takes its commission on the price less its tax, so a £5.00 top-up in GBR comes to £0.833333 of VAT, £0.625
/// of commission and £3.541667 of proceeds (``MoneySplit`` says how each is rounded).
public struct VoiceDebriefMoney: MoneySettings {
    /// The sales tax included in the price, in basis points, by storefront (ISO 3166-1 alpha-3). Placeholders.
    public static let taxByStorefront: [String: Int] = [
        // UK VAT, standard rate, included in App Store prices.
        "GBR": 2000
    ]

    public let commission: CommissionRate

    /// The owner's settings: the Small Business Program's rate unless another is given.
    public init(commission: CommissionRate = .smallBusiness) { self.commission = commission }

    public func taxBasisPoints(storefront: String) -> Int? { VoiceDebriefMoney.taxByStorefront[storefront] }

    public var isPlaceholder: Bool { true }
}
