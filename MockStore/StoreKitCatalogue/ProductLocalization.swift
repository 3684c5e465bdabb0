/// A product's name and description in one locale, as in a `.storekit` file.
public struct ProductLocalization: Equatable, Sendable {
    /// e.g. `en_GB`.
    public var locale: String
    public var displayName: String
    public var description: String

    public init(locale: String, displayName: String, description: String) {
        self.locale = locale
        self.displayName = displayName
        self.description = description
    }
}

extension ProductLocalization {
    /// The localization for `locale`: an exact match (`en_GB`), else the same language (`en`), else the first.
    /// `nil` only when there are none.
    public static func best(of localizations: [ProductLocalization], for locale: String) -> ProductLocalization? {
        let wanted = normalised(locale)
        if let exact = localizations.first(where: { normalised($0.locale) == wanted }) {
            return exact
        }
        let language = wanted.split(separator: "_").first.map(String.init) ?? wanted
        if let sameLanguage = localizations.first(where: {
            normalised($0.locale).split(separator: "_").first.map(String.init) == language
        }) {
            return sameLanguage
        }
        return localizations.first
    }

    /// `en-GB` and `en_gb` name the same locale as `en_GB`.
    private static func normalised(_ locale: String) -> String {
        locale.replacingOccurrences(of: "-", with: "_").lowercased()
    }
}
