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
    /// The price in the app's own words (`1p, when something was sent`), when it says more than the unit does;
    /// nil: ``priceDescription`` is worked out from the price and the unit.
    public var wording: String?
    /// What an entry of this act is called (`Transcript`); nil: the label.
    public var displayName: String?
    /// What the quantity counts, when an entry says it (`167 minutes`, `4 files`); nil: an entry shows no count.
    public var counted: CountNoun?
    /// The line of the price list this item is shown on when it shares one with the items beside it (`Removing a
    /// server, a recipient or one of your words`); nil: a line of its own (see ``PriceList/rows``).
    public var sharedRow: String?

    public init(
        key: String, label: String, price: MicroCredits, unit: PricingUnit = .each,
        oncePerSubjectPerSession: Bool = false, freeWhenAutomatic: Bool = false, isPlaceholder: Bool = true,
        wording: String? = nil, displayName: String? = nil, counted: CountNoun? = nil, sharedRow: String? = nil
    ) {
        self.key = key
        self.label = label
        self.price = price
        self.unit = unit
        self.oncePerSubjectPerSession = oncePerSubjectPerSession
        self.freeWhenAutomatic = freeWhenAutomatic
        self.isPlaceholder = isPlaceholder
        self.wording = wording
        self.displayName = displayName
        self.counted = counted
        self.sharedRow = sharedRow
    }

    /// What an entry of this act is called: ``displayName``, else the label.
    public var name: String { displayName ?? label }

    /// The price alone, as people read it: `3p`, or `£1.50` (whole pence below £1 in pence).
    public var amountDescription: String {
        price.isWholePence && price.rawValue.magnitude < 1_000_000 ? "\(price.rawValue / 10_000)p" : price.formatted
    }

    /// The price as people read it: ``wording`` when the app gives it, else from the unit: `3p a started minute`,
    /// `1p each, up to 4`.
    public var priceDescription: String {
        if let wording { return wording }
        let amount = amountDescription
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

    /// Every key's name in the price list's own words, its label (`transcript`: `A transcript`): what the P&L, the
    /// takings and the page call a feature.
    public var featureNames: [String: String] {
        Dictionary(items.map { ($0.key, $0.label) }, uniquingKeysWith: { first, _ in first })
    }

    /// The price list as people read it, one line per act, except that items beside each other with the same
    /// ``PriceItem/sharedRow`` and price share one line (`Removing a server, a recipient or one of your words`,
    /// `1p each`).
    public var rows: [PriceRow] {
        var rows: [PriceRow] = []
        var lastItem: PriceItem?
        for item in items {
            if let shared = item.sharedRow, let last = lastItem, last.sharedRow == shared, last.price == item.price,
                last.unit == item.unit, var row = rows.popLast()
            {
                row.keys.append(item.key)
                row.price = item.amountDescription + " each"
                rows.append(row)
            } else {
                rows.append(
                    PriceRow(what: item.sharedRow ?? item.label, price: item.priceDescription, keys: [item.key]))
            }
            lastItem = item
        }
        return rows
    }
}

/// One line of a price list as people read it: what, its price in words, and the ledger keys it covers.
public struct PriceRow: Sendable, Equatable {
    /// What is charged: `A transcript`.
    public var what: String
    /// The price in words: `3p a minute of audio; a started minute is a whole one`.
    public var price: String
    /// The keys in the ledger (one, or several sharing the line).
    public var keys: [String]

    public init(what: String, price: String, keys: [String]) {
        self.what = what
        self.price = price
        self.keys = keys
    }
}
