/// The numbers `mockstore control` takes in thousandths: a refund's percentage, a price.
extension ControlInvocation {
    /// `50` → 50000, `33.333` → 33333: a percentage above 0 and at most 100, with at most three decimals, in
    /// Apple's milliunits; nil for anything else.
    static func milliPercent(_ text: String) -> Int? {
        guard let milli = thousandths(text, wholeDigits: 3), (1...100_000).contains(milli) else { return nil }
        return Int(milli)
    }

    /// `10.99` → 10990: a price above 0 with at most three decimals, in milliunits; nil for anything else.
    static func milliunits(_ text: String) -> Int64? {
        thousandths(text, wholeDigits: 9).flatMap { $0 > 0 ? $0 : nil }
    }

    /// `12.5` → 12500: digits, then optionally a point and one to three digits, in thousandths; nil otherwise.
    static func thousandths(_ text: String, wholeDigits: Int) -> Int64? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= wholeDigits,
            whole.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.count <= 3, fraction.allSatisfy({ $0.isASCII && $0.isNumber }),
            parts.count == 1 || !fraction.isEmpty
        else { return nil }
        fraction += String(repeating: "0", count: 3 - fraction.count)
        guard let units = Int64(whole), let parts = Int64(fraction) else { return nil }
        return units * 1000 + parts
    }
}
