/// A value a store sends (or a file keeps) as a string, read into an enum: one case for each value known when this
/// was written, and `unrecognized` for any other, holding the string as sent.
///
/// Apple's App Store Server Library keeps the raw string beside each enum (`environment` and `rawEnvironment`) so a
/// value Apple adds later is carried, not lost and not a decoding failure. These enums do the same in one value: an
/// unknown value decodes, compares by its text and encodes back unchanged.
public protocol WireEnum: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible
where RawValue == String {
    /// The known case sent as `rawValue`, or `unrecognized(rawValue)`: never nil.
    init(rawValue: String)
}

extension WireEnum {
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The value as it is sent.
    public var description: String { rawValue }
}

/// The server environment a signed transaction comes from (`environment`): Apple's values.
public enum StoreEnvironment: WireEnum {
    case sandbox
    case production
    /// StoreKit Testing in Xcode: signed with a local certificate, never to be credited.
    case xcode
    /// Apple's libraries' local testing, which skips signatures.
    case localTesting
    case unrecognized(String)

    public init(rawValue: String) {
        switch rawValue {
        case "Sandbox": self = .sandbox
        case "Production": self = .production
        case "Xcode": self = .xcode
        case "LocalTesting": self = .localTesting
        default: self = .unrecognized(rawValue)
        }
    }

    public var rawValue: String {
        switch self {
        case .sandbox: return "Sandbox"
        case .production: return "Production"
        case .xcode: return "Xcode"
        case .localTesting: return "LocalTesting"
        case .unrecognized(let value): return value
        }
    }
}

/// What a pending purchase waits for, when the store says (StoreKit itself does not): the mock store's
/// `pendingReason`.
public enum PendingReason: WireEnum {
    /// Ask to Buy: a parent or guardian must approve it.
    case askToBuy
    /// An interrupted purchase: an issue to resolve in the App Store.
    case interrupted
    case unrecognized(String)

    public init(rawValue: String) {
        switch rawValue {
        case "askToBuy": self = .askToBuy
        case "interrupted": self = .interrupted
        default: self = .unrecognized(rawValue)
        }
    }

    public var rawValue: String {
        switch self {
        case .askToBuy: return "askToBuy"
        case .interrupted: return "interrupted"
        case .unrecognized(let value): return value
        }
    }
}

/// A product's type as a store's product list gives it, shaped like StoreKit 2's `Product.ProductType`.
public enum ProductType: WireEnum {
    case consumable
    case nonConsumable
    case nonRenewable
    case autoRenewable
    case unrecognized(String)

    public init(rawValue: String) {
        switch rawValue {
        case "consumable": self = .consumable
        case "nonConsumable": self = .nonConsumable
        case "nonRenewable": self = .nonRenewable
        case "autoRenewable": self = .autoRenewable
        default: self = .unrecognized(rawValue)
        }
    }

    public var rawValue: String {
        switch self {
        case .consumable: return "consumable"
        case .nonConsumable: return "nonConsumable"
        case .nonRenewable: return "nonRenewable"
        case .autoRenewable: return "autoRenewable"
        case .unrecognized(let value): return value
        }
    }
}

/// How a refunded transaction was revoked (`revocationType`): Apple's values.
public enum RevocationType: WireEnum {
    case refundFull
    /// Part of it refunded: `revocationPercentage` says how much.
    case refundProrated
    /// Family Sharing revoked.
    case familyRevoke
    case unrecognized(String)

    public init(rawValue: String) {
        switch rawValue {
        case "REFUND_FULL": self = .refundFull
        case "REFUND_PRORATED": self = .refundProrated
        case "FAMILY_REVOKE": self = .familyRevoke
        default: self = .unrecognized(rawValue)
        }
    }

    public var rawValue: String {
        switch self {
        case .refundFull: return "REFUND_FULL"
        case .refundProrated: return "REFUND_PRORATED"
        case .familyRevoke: return "FAMILY_REVOKE"
        case .unrecognized(let value): return value
        }
    }
}
