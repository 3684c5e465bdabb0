/// How a transaction came to be (the mock store's `origin`): a purchase call from the app, or something the
/// app did not ask for, which the updates feed delivers.
///
/// Decodes any value: one added later is ``unrecognized(_:)``, kept as sent.
public enum TransactionOrigin: WireStringEnum {
    /// A purchase call from the app. `app`.
    case app
    /// Bought outside the app (`buyProduct`), a renewal or a change the app did not ask for. `outside`.
    case outside
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.app, .outside]

    public var rawValue: String {
        switch self {
        case .app: "app"
        case .outside: "outside"
        case .unrecognized(let value): value
        }
    }
}
