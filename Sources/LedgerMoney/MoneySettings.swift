import LedgerEntries

/// Apple's commission on a sale, as a named rate: the owner's setting, a placeholder until the agreement is signed.
public struct CommissionRate: Sendable, Hashable, Codable {
    /// A short name for people and JSON: `small-business`, `standard`.
    public var name: String
    /// The rate in basis points (1% is 100): 1500 is 15%.
    public var basisPoints: Int

    public init(name: String, basisPoints: Int) {
        self.name = name
        self.basisPoints = basisPoints
    }

    /// 15%: the App Store Small Business Program's rate.
    public static let smallBusiness = CommissionRate(name: "small-business", basisPoints: 1500)
    /// 30%: the App Store's standard rate.
    public static let standard = CommissionRate(name: "standard", basisPoints: 3000)
}

/// An app's money settings, beside its ``CostList``: what the store keeps of a sale, and the sales tax included in
/// the price in each storefront. The ledger takes any app's settings and knows nothing of the app.
///
/// A storefront the settings do not know is "tax unknown": its sales are counted as paid (gross), and their tax,
/// commission and proceeds are not worked out, never guessed.
public protocol MoneySettings: Sendable {
    /// The store's commission, charged on the price less its tax.
    var commission: CommissionRate { get }
    /// The sales tax included in the price in `storefront` (ISO 3166-1 alpha-3, as a signed transaction names it), in
    /// basis points (20% VAT is 2000), or nil when the settings do not know it.
    func taxBasisPoints(storefront: String) -> Int?
    /// Whether any figure is a placeholder.
    var isPlaceholder: Bool { get }
}

/// Settings for a caller that has none (a test of the credit figures alone): no commission, and every storefront's
/// tax unknown, so no proceeds are worked out.
public struct UnstatedMoneySettings: MoneySettings {
    public init() {}
    public var commission: CommissionRate { CommissionRate(name: "unstated", basisPoints: 0) }
    public func taxBasisPoints(storefront: String) -> Int? { nil }
    public var isPlaceholder: Bool { true }
}
