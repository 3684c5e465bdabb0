import Foundation
import Synchronization

/// Formats a catalogue price the way the storefront shows it (`5.00` in GBP for `en_GB` → `£5.00`).
public enum PriceFormatter {
    /// The prices formatted so far. Formatting is a pure function of its three inputs, and making an ICU number
    /// formatter is most of a products request's time (about 0.3 ms each on the bench machine), so each
    /// (price, currency, locale) is formatted once.
    private static let formatted = FormattedPrices()

    /// `price` (a decimal string such as `5.00`) in `currency`, as `locale` writes it.
    public static func displayPrice(_ price: String, currency: String, locale: String) -> String {
        let key = price + "\u{1F}" + currency + "\u{1F}" + locale
        if let known = formatted.value(for: key) { return known }
        let value = format(price, currency: currency, locale: locale)
        formatted.store(value, for: key)
        return value
    }

    private static func format(_ price: String, currency: String, locale: String) -> String {
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

/// A small memo of formatted prices, shared by concurrent requests.
private final class FormattedPrices: Sendable {
    private let values = Mutex<[String: String]>([:])

    func value(for key: String) -> String? {
        values.withLock { $0[key] }
    }

    func store(_ value: String, for key: String) {
        values.withLock { values in
            // A catalogue has a handful of prices; a client sending endless locales cannot grow this without bound.
            if values.count >= 1_024 { values.removeAll() }
            values[key] = value
        }
    }
}
