/// Whether the customer bought the product or has it through Family Sharing (`inAppOwnershipType`): Apple's
/// `InAppOwnershipType`.
///
/// Decodes any value: one Apple adds later is ``unrecognized(_:)``, kept as sent.
public enum InAppOwnershipType: WireStringEnum {
    /// `FAMILY_SHARED`.
    case familyShared
    /// `PURCHASED`.
    case purchased
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.familyShared, .purchased]

    public var rawValue: String {
        switch self {
        case .familyShared: "FAMILY_SHARED"
        case .purchased: "PURCHASED"
        case .unrecognized(let value): value
        }
    }
}
