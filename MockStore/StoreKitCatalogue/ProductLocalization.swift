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
