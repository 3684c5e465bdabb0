/// The platform of the customer's first download (an app transaction's `originalPlatform`): Apple's
/// `PurchasePlatform`.
///
/// Decodes any value: one Apple adds later is ``unrecognized(_:)``, kept as sent.
public enum PurchasePlatform: WireStringEnum {
    /// `iOS`.
    case iOS
    /// `macOS`.
    case macOS
    /// `tvOS`.
    case tvOS
    /// `visionOS`.
    case visionOS
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.iOS, .macOS, .tvOS, .visionOS]

    public var rawValue: String {
        switch self {
        case .iOS: "iOS"
        case .macOS: "macOS"
        case .tvOS: "tvOS"
        case .visionOS: "visionOS"
        case .unrecognized(let value): value
        }
    }
}
