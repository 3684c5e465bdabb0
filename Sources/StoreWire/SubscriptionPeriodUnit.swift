/// The unit of a subscription period (`unit`): StoreKit's `Product.SubscriptionPeriod.Unit`.
///
/// Decodes any value: one added later is ``unrecognized(_:)``, kept as sent.
public enum SubscriptionPeriodUnit: WireStringEnum {
    /// `day`.
    case day
    /// `week`.
    case week
    /// `month`.
    case month
    /// `year`.
    case year
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.day, .week, .month, .year]

    public var rawValue: String {
        switch self {
        case .day: "day"
        case .week: "week"
        case .month: "month"
        case .year: "year"
        case .unrecognized(let value): value
        }
    }
}
