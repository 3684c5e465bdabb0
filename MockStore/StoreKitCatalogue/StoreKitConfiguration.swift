import Foundation

/// A StoreKit configuration file (`.storekit`, Xcode's JSON format, versions 1.x to 5.x): the products the
/// mock store sells and the settings it starts with.
///
/// Consumables, non-consumables, non-renewing subscriptions and the auto-renewable subscriptions of
/// subscription groups are read.
public struct StoreKitConfiguration: Equatable, Sendable {
    /// The file's `version` (`major.minor`).
    public struct Version: Equatable, Sendable, CustomStringConvertible {
        public var major: Int
        public var minor: Int
        public var description: String { "\(major).\(minor)" }
    }

    /// The `.storekit` versions this reader understands.
    public static let supportedMajorVersions = 1...5

    /// The storefront when the file does not set `_storefront` (SKTestSession's default).
    public static let defaultStorefront = "USA"
    /// The locale when the file does not set `_locale`.
    public static let defaultLocale = "en_US"

    public var identifier: String?
    public var version: Version
    /// Every product on sale, in file order: `products`, `nonRenewingSubscriptions`, then the subscriptions of
    /// each of `subscriptionGroups` (type ``CatalogueProductType/autoRenewable``, with ``CatalogueProduct/subscription``).
    public var products: [CatalogueProduct]
    public var settings: StoreKitSettings
    /// The file's subscription groups, in file order (their subscriptions are in ``products``).
    public var subscriptionGroups: [SubscriptionGroup]
    /// How many subscription groups the file has.
    public var subscriptionGroupCount: Int
    /// The storefront prices are in (from `_storefront`, else ``defaultStorefront``).
    public var storefront: Storefront

    /// The locale names and descriptions are shown in (from `_locale`, else ``defaultLocale``).
    public var locale: String { settings.locale ?? Self.defaultLocale }

    /// The subscription group with this id.
    public func subscriptionGroup(id: String) -> SubscriptionGroup? {
        subscriptionGroups.first { $0.id == id }
    }

    /// The auto-renewable subscriptions of the group with this id, in file order (none for an unknown group).
    public func subscriptions(inGroup id: String) -> [CatalogueProduct] {
        (subscriptionGroup(id: id)?.productIDs ?? []).compactMap { product(id: $0) }
    }

    /// The product with this id, if the catalogue sells it.
    public func product(id: String) -> CatalogueProduct? {
        products.first { $0.id == id }
    }

    /// Reads and checks the file at `path`.
    ///
    /// - Throws: ``CatalogueError`` naming the file and saying what is wrong where.
    public static func load(contentsOf path: String) throws(CatalogueError) -> StoreKitConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"
            throw CatalogueError(file: path, problem: "\(reason) (a StoreKit configuration file was expected here)")
        }
        return try parse(data, source: path)
    }

    /// Reads and checks `.storekit` JSON; `source` names it in errors.
    public static func parse(_ data: Data, source: String) throws(CatalogueError) -> StoreKitConfiguration {
        try StoreKitFileReader(source: source).read(data)
    }
}
