import LedgerEntries

/// One line of a cost list: what serving one unit of a feature costs, as the owner estimates it.
///
/// The unit is the price item's: a feature priced per started minute (a transcript) costs ``cost`` per started
/// minute, one priced per item costs it per item, and one priced once (`each`, or `whenSomethingMoved`) costs it once
/// per charge. A cost may be below a penny (a speech-to-text minute or a model call costs a fraction of one), so it is
/// any whole number of micro-credits, never rounded to pence.
public struct CostItem: Sendable, Equatable {
    /// The feature key, as in the price list and the ledger.
    public var key: String
    /// What the cost is, for people: `speech-to-text, a minute`.
    public var label: String
    /// The cost of one unit in micro-credits (zero allowed, and then written on purpose).
    public var cost: MicroCredits
    /// Whether the figure is a placeholder (the P&L says so).
    public var isPlaceholder: Bool

    public init(key: String, label: String, cost: MicroCredits, isPlaceholder: Bool = true) {
        self.key = key
        self.label = label
        self.cost = cost
        self.isPlaceholder = isPlaceholder
    }
}

/// An app's cost list, beside its ``PriceList``: the ledger takes any app's list and knows nothing of what the keys
/// mean.
public protocol CostList: Sendable {
    /// A line for every priced act (zero allowed, but written).
    var items: [CostItem] { get }
}

extension CostList {
    /// The line for `key`.
    public func item(for key: String) -> CostItem? { items.first { $0.key == key } }

    /// The keys of `prices` that have no line here, in the price list's order.
    public func keysWithoutCost(in prices: some PriceList) -> [String] {
        let costed = Set(items.map(\.key))
        return prices.items.map(\.key).filter { !costed.contains($0) }
    }

    /// Whether any figure is a placeholder.
    public var hasPlaceholders: Bool { items.contains { $0.isPlaceholder } }
}

extension PricingUnit {
    /// How many units of cost one charge of `quantity` is: the quantity for per-minute and per-item prices (started
    /// minutes, files), one for a price charged once.
    public func costUnits(quantity: Int64) -> Int64 {
        switch self {
        case .perStartedMinute, .perItem: return quantity
        case .each, .whenSomethingMoved: return 1
        }
    }
}

/// A cost list and a price list read once into a table by feature, for costing many charges.
public struct CostTable: Sendable {
    private var lines: [String: (cost: MicroCredits, unit: PricingUnit?)] = [:]
    /// Whether any figure is a placeholder.
    public let hasPlaceholders: Bool

    public init(costs: some CostList, prices: some PriceList) {
        for item in costs.items { lines[item.key] = (item.cost, prices.item(for: item.key)?.unit) }
        hasPlaceholders = costs.hasPlaceholders
    }

    /// What serving one charge of `feature` for `quantity` cost: the cost per unit times the units of the price
    /// item's unit. A feature the price list does not know is costed once per charge; one without a cost line
    /// costs nothing (a test of the app's lists fails first).
    public func cost(of feature: String, quantity: Int64) throws -> MicroCredits {
        guard let line = lines[feature] else { return .zero }
        return try line.cost.multiplied(by: line.unit?.costUnits(quantity: quantity) ?? 1)
    }
}
