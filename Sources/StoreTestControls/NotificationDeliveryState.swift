import StoreWire

/// Where a server notification's delivery stands (`status` of a test control's notification record).
///
/// Decodes any value: one added later is ``unrecognized(_:)``, kept as sent.
public enum NotificationDeliveryState: WireStringEnum {
    /// A try is due. `pending`.
    case pending
    /// The receiver answered 200. `delivered`.
    case delivered
    /// No tries left. `failed`.
    case failed
    /// The store has no `--notify` URL: recorded, never sent. `unsent`.
    case unsent
    /// A value none of the cases above has, as sent.
    case unrecognized(String)

    public static let knownCases: [Self] = [.pending, .delivered, .failed, .unsent]

    public var rawValue: String {
        switch self {
        case .pending: "pending"
        case .delivered: "delivered"
        case .failed: "failed"
        case .unsent: "unsent"
        case .unrecognized(let value): value
        }
    }
}
