import LedgerEntries

/// An amount of money in micro-units of its currency, written for people in that currency, never converted: pounds
/// as credit is written (`£3.541667`, `-£0.01`: pence always, exact below a penny), any other currency with its code
/// (`USD 4.99`, `EUR 0.833333`).
public enum CurrencyAmount {
    public static func formatted(_ micros: Int64, currency: String) -> String {
        let pounds = MicroCredits(micros).formatted
        guard currency != MoneyTally.creditCurrency else { return pounds }
        return pounds.split(separator: "£", omittingEmptySubsequences: false).joined(separator: currency + " ")
    }
}
