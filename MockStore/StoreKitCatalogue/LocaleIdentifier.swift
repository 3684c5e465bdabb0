/// Locale identifiers as `SKTestSession.locale` takes them (`en_GB`, `fr`, `zh_Hant_TW`, `es-419`), and which of
/// them a catalogue can serve.
public enum LocaleIdentifier {
    /// Whether `text` has the shape of a locale identifier: a language of 2 or 3 letters, then optionally a script
    /// of 4 letters and a region of 2 letters or 3 digits, joined by `_` or `-`.
    public static func isWellFormed(_ text: String) -> Bool {
        let parts = text.split(separator: "_", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "-", omittingEmptySubsequences: false) }
        guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy(isLetter) else {
            return false
        }
        var rest = parts.dropFirst()
        if let script = rest.first, script.count == 4, script.allSatisfy(isLetter) {
            rest = rest.dropFirst()
        }
        if let region = rest.first {
            let isRegion =
                (region.count == 2 && region.allSatisfy(isLetter))
                || (region.count == 3 && region.allSatisfy { $0.isASCII && $0.isNumber })
            guard isRegion else { return false }
            rest = rest.dropFirst()
        }
        return rest.isEmpty
    }

    /// The language of a well-formed identifier, lowercased (`en_GB` → `en`).
    public static func language(of text: String) -> String {
        String(text.prefix { $0 != "_" && $0 != "-" }).lowercased()
    }

    private static func isLetter(_ character: Character) -> Bool {
        character.isASCII && character.isLetter
    }
}

extension StoreKitConfiguration {
    /// The locales the file's products and subscription groups are localized in, and its own `_locale`, in file
    /// order, each once.
    public var servedLocales: [String] {
        var seen = Set<String>()
        let named =
            products.flatMap { $0.localizations.map(\.locale) }
            + subscriptionGroups.flatMap { $0.localizations.map(\.locale) }
        return ([locale] + named).filter { seen.insert($0).inserted }
    }

    /// Whether names and descriptions can be shown in `locale`: it is well formed and its language is one the
    /// catalogue has (a product shows the closest localization of that language).
    public func canServe(locale: String) -> Bool {
        LocaleIdentifier.isWellFormed(locale)
            && servedLocales.contains { LocaleIdentifier.language(of: $0) == LocaleIdentifier.language(of: locale) }
    }
}
