/// Which store a configuration names (`store` in `store.json`).
public enum StoreKind: WireEnum {
    /// No server, no money: the default.
    case simulated
    /// A running `mockstore`.
    case mockstore
    /// A name this version does not know: refused when the configuration is loaded.
    case unrecognized(String)

    public init(rawValue: String) {
        switch rawValue {
        case "simulated": self = .simulated
        case "mockstore": self = .mockstore
        default: self = .unrecognized(rawValue)
        }
    }

    /// The environment this store's receipts must come from when its configuration names none: Sandbox for the
    /// mock store (and for a configuration written before the field existed). A future App Store provider's is
    /// Production, so that a sandbox receipt, also signed by Apple, never buys real credit.
    public var defaultReceiptEnvironment: StoreEnvironment {
        switch self {
        case .mockstore, .simulated, .unrecognized: return .sandbox
        }
    }

    public var rawValue: String {
        switch self {
        case .simulated: return "simulated"
        case .mockstore: return "mockstore"
        case .unrecognized(let value): return value
        }
    }
}

/// How a configuration verifies its store's receipts (`signing` in `store.json`).
public enum ReceiptSigning: WireEnum {
    /// ES256 with an `x5c` chain to the root pinned in `store-root.der`.
    case es256
    /// HS256 with the shared secret in `store-secret`.
    case hs256
    case unrecognized(String)

    public init(rawValue: String) {
        switch rawValue {
        case "es256": self = .es256
        case "hs256": self = .hs256
        default: self = .unrecognized(rawValue)
        }
    }

    public var rawValue: String {
        switch self {
        case .es256: return "es256"
        case .hs256: return "hs256"
        case .unrecognized(let value): return value
        }
    }
}
