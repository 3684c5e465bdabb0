/// How an act's price is counted.
public enum PricingUnit: Sendable, Equatable {
    /// The price once for each act.
    case each
    /// The price for each minute of audio; a started minute is a whole one.
    case perStartedMinute
    /// The price for each item, from one up to `maximum` items.
    case perItem(maximum: Int)
    /// The price once, only when something moved (quantity above zero); nothing moved costs nothing.
    case whenSomethingMoved
}

/// One line of a price list.
public struct PriceItem: Sendable, Equatable {
    /// The feature key: a short fixed string in the ledger, never display text, never renamed.
    public var key: String
    /// What it is, for people.
    public var label: String
    /// The price of one unit.
    public var price: MicroCredits
    public var unit: PricingUnit
    /// Charged once per subject while the app is open (a session), like a page read on the newsroom meter.
    public var oncePerSubjectPerSession: Bool
    /// Whether the act can happen by itself (a note opening as a recording stops), and then costs nothing.
    public var freeWhenAutomatic: Bool
    /// Whether the price is a placeholder (the screen says so).
    public var isPlaceholder: Bool

    public init(
        key: String, label: String, price: MicroCredits, unit: PricingUnit = .each,
        oncePerSubjectPerSession: Bool = false, freeWhenAutomatic: Bool = false, isPlaceholder: Bool = true
    ) {
        self.key = key
        self.label = label
        self.price = price
        self.unit = unit
        self.oncePerSubjectPerSession = oncePerSubjectPerSession
        self.freeWhenAutomatic = freeWhenAutomatic
        self.isPlaceholder = isPlaceholder
    }

    /// The price as people read it: `3p a minute`, `1p a file (up to 4)`.
    public var priceDescription: String {
        let amount =
            price.isWholePence && price.rawValue.magnitude < 1_000_000
            ? "\(price.rawValue / 10_000)p" : price.formatted
        switch unit {
        case .each: return amount
        case .perStartedMinute: return "\(amount) a started minute"
        case .perItem(let maximum): return "\(amount) each, up to \(maximum)"
        case .whenSomethingMoved: return "\(amount), when something moved"
        }
    }
}

/// An app's price list: the ledger takes any app's list; it knows nothing of what the keys mean.
public protocol PriceList: Sendable {
    /// Every priced act.
    var items: [PriceItem] { get }
    /// Acts that are never charged, by name, with the sentence that says so.
    var neverCharged: [String: String] { get }
}

extension PriceList {
    /// The item for `key`.
    public func item(for key: String) -> PriceItem? { items.first { $0.key == key } }
}
