import Foundation

/// Formats a catalogue price the way the storefront shows it (`5.00` in GBP for `en_GB` → `£5.00`).
enum PriceFormatter {
    static func displayPrice(_ price: String, currency: String, locale: String) -> String {
        guard let amount = Decimal(string: price, locale: Locale(identifier: "en_US_POSIX")) else {
            return "\(price) \(currency)"
        }
        // NumberFormatter is not Sendable: one per call (a products request formats a handful of prices).
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.locale = Locale(identifier: locale)
        formatter.currencyCode = currency
        return formatter.string(from: amount as NSDecimalNumber) ?? "\(price) \(currency)"
    }
}
