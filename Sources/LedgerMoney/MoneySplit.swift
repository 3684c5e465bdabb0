import LedgerEntries

/// What one payment comes to: the gross paid, the sales tax inside it, the store's commission and the proceeds
/// left, in micro-units of its currency (a millionth of a pound, of a dollar), always whole numbers.
///
/// ## The rounding rule
///
/// The tax is `gross × tax / (1 + tax)` and the commission is `(gross − tax) × commission` (the store takes its share
/// of the price without its tax), each rounded to the nearest micro-unit, a half away from zero; the proceeds are
/// what is left, `gross − tax − commission`, so the three always add up to the gross exactly. A £5.00 sale in the UK
/// (20% VAT) at 15%: tax £0.833333 (833,333.33 rounded), commission £0.625 (625,000.05 rounded), proceeds £3.541667.
/// A share (a partial refund's gross, tax and commission, a feature's proceeds) is rounded the same way. Arithmetic
/// is checked: an overflow throws ``LedgerError/overflow(_:)``, never wraps.
public struct MoneySplit: Sendable, Equatable {
    public var gross: Int64
    public var tax: Int64
    public var commission: Int64
    public var proceeds: Int64

    public init(gross: Int64, tax: Int64, commission: Int64, proceeds: Int64) {
        self.gross = gross
        self.tax = tax
        self.commission = commission
        self.proceeds = proceeds
    }

    /// The split of `gross` under a tax of `taxBasisPoints` included in it and a commission of
    /// `commissionBasisPoints` on the price less its tax.
    public init(gross: Int64, taxBasisPoints: Int, commissionBasisPoints: Int) throws {
        let tax = try MoneySplit.rounded(gross, times: Int64(taxBasisPoints), over: 10_000 + Int64(taxBasisPoints))
        let net = try MicroCredits(gross).subtracting(MicroCredits(tax)).rawValue
        let commission = try MoneySplit.rounded(net, times: Int64(commissionBasisPoints), over: 10_000)
        let proceeds = try MicroCredits(net).subtracting(MicroCredits(commission)).rawValue
        self.init(gross: gross, tax: tax, commission: commission, proceeds: proceeds)
    }

    /// `milliPercent` (100000 is all of it) of the gross, the tax and the commission, each rounded by the rule, and
    /// the proceeds what is left of that gross: what a refund of that share takes back, adding up as a sale does.
    public func share(milliPercent: Int) throws -> MoneySplit {
        let share = Int64(milliPercent)
        let gross = try MoneySplit.rounded(self.gross, times: share, over: 100_000)
        let tax = try MoneySplit.rounded(self.tax, times: share, over: 100_000)
        let commission = try MoneySplit.rounded(self.commission, times: share, over: 100_000)
        let proceeds = try MicroCredits(gross).subtracting(MicroCredits(tax)).subtracting(MicroCredits(commission))
        return MoneySplit(gross: gross, tax: tax, commission: commission, proceeds: proceeds.rawValue)
    }

    /// `value × numerator / denominator` to the nearest whole number, a half away from zero, exact in 128 bits;
    /// `denominator` above zero. Throws ``LedgerError/overflow(_:)`` when the result does not fit in 64 bits.
    public static func rounded(_ value: Int64, times numerator: Int64, over denominator: Int64) throws -> Int64 {
        precondition(denominator > 0, "a share is of a whole above zero")
        let negative = (value < 0) != (numerator < 0)
        let product = value.magnitude.multipliedFullWidth(by: numerator.magnitude)
        let whole = denominator.magnitude
        guard product.high < whole else { throw LedgerError.overflow("\(value) × \(numerator) / \(denominator)") }
        var (quotient, remainder) = whole.dividingFullWidth(product)
        // Round half away from zero: up when the remainder is at least half the denominator.
        if remainder >= whole - remainder, quotient < UInt64.max { quotient += 1 }
        guard quotient <= Int64.max.magnitude else {
            throw LedgerError.overflow("\(value) × \(numerator) / \(denominator)")
        }
        return negative ? -Int64(quotient) : Int64(quotient)
    }
}
