import Testing

@testable import StoreKitCatalogue

/// Storefront currencies as Apple's "Financial report regions and currencies" (App Store Connect Help) gives them:
/// the regions with a currency of their own, and the Euro-Zone region, whose storefronts are priced in euros
/// (Bosnia and Herzegovina, Montenegro and Serbia among them, beside Kosovo, Bulgaria and Croatia).
@Suite struct StorefrontCurrencyTests {
    /// Storefronts of the regions that report in a currency of their own, with it.
    static let ownCurrency: [String: String] = [
        "AUS": "AUD", "BRA": "BRL", "CAN": "CAD", "CHL": "CLP", "CHN": "CNY", "COL": "COP", "CZE": "CZK",
        "DNK": "DKK", "EGY": "EGP", "HKG": "HKD", "HUN": "HUF", "IND": "INR", "IDN": "IDR", "ISR": "ILS",
        "JPN": "JPY", "KAZ": "KZT", "KOR": "KRW", "MYS": "MYR", "MEX": "MXN", "NZL": "NZD", "NGA": "NGN",
        "NOR": "NOK", "PAK": "PKR", "PER": "PEN", "PHL": "PHP", "POL": "PLN", "QAT": "QAR", "ROU": "RON",
        "RUS": "RUB", "SAU": "SAR", "SGP": "SGD", "ZAF": "ZAR", "SWE": "SEK", "CHE": "CHF", "TWN": "TWD",
        "THA": "THB", "TUR": "TRY", "ARE": "AED", "GBR": "GBP", "TZA": "TZS", "VNM": "VND", "USA": "USD",
    ]
    /// Storefronts priced in euros.
    static let euro = [
        "AUT", "BEL", "BIH", "BGR", "HRV", "CYP", "EST", "FIN", "FRA", "DEU", "GRC", "IRL", "ITA", "XKS", "LVA",
        "LTU", "LUX", "MLT", "MNE", "NLD", "PRT", "SRB", "SVK", "SVN", "ESP",
    ]
}

extension StorefrontCurrencyTests {
    @Test func regionsWithTheirOwnCurrencyArePricedInIt() throws {
        for (code, currency) in Self.ownCurrency {
            #expect(try #require(Storefront.named(code), "\(code)").currency == currency, "\(code)")
        }
    }

    @Test func theEuroZoneIsPricedInEuros() throws {
        for code in Self.euro {
            #expect(try #require(Storefront.named(code), "\(code)").currency == "EUR", "\(code)")
        }
    }

    @Test func everyOtherStorefrontIsPricedInDollarsSaveLiechtenstein() {
        let named = Set(Self.ownCurrency.keys).union(Self.euro).union(["LIE"])
        for storefront in Storefront.known where !named.contains(storefront.code) {
            #expect(storefront.currency == "USD", "\(storefront.code)")
        }
        #expect(Storefront.named("LIE")?.currency == "CHF")
    }
}
