import StoreWire

/// Which store a configuration names (`store` in `store.json`).
public enum StoreKind: WireStringEnum {
    /// No server, no money: the default.
    case simulated
    /// A running `mockstore`.
    case mockstore
    /// A name this version does not know: refused when the configuration is loaded.
    case unrecognized(String)

    public static let knownCases: [Self] = [.simulated, .mockstore]

    /// The environment this store's receipts must come from when its configuration names none: Sandbox for the
    /// mock store (and for a configuration written before the field existed). A future App Store provider's is
    /// Production, so that a sandbox receipt, also signed by Apple, never buys real credit.
    public var defaultReceiptEnvironment: AppStoreEnvironment {
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
public enum ReceiptSigning: WireStringEnum {
    /// ES256 with an `x5c` chain to the root pinned in `store-root.der`.
    case es256
    /// HS256 with the shared secret in `store-secret`.
    case hs256
    /// A name this version does not know: refused when the configuration is loaded.
    case unrecognized(String)

    public static let knownCases: [Self] = [.es256, .hs256]

    public var rawValue: String {
        switch self {
        case .es256: return "es256"
        case .hs256: return "hs256"
        case .unrecognized(let value): return value
        }
    }
}
