/// The server environment a signed payload comes from (`environment`, and an app transaction's
/// `receiptType`): Apple's `AppStoreEnvironment`.
///
/// Decodes any value: one Apple adds later is ``unrecognized(_:)``, kept as sent.
public enum AppStoreEnvironment: WireStringEnum {
    /// `Sandbox`.
    case sandbox
    /// `Production`.
    case production
    /// StoreKit Testing in Xcode: signed with a local certificate, never to be credited. `Xcode`.
    case xcode
    /// Apple's libraries' local testing, which skips signatures. `LocalTesting`.
    case localTesting
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.sandbox, .production, .xcode, .localTesting]

    public var rawValue: String {
        switch self {
        case .sandbox: "Sandbox"
        case .production: "Production"
        case .xcode: "Xcode"
        case .localTesting: "LocalTesting"
        case .unrecognized(let value): value
        }
    }
}
