import StoreTestControls

/// What set a simulated StoreKit failure: a test control, or the catalogue file the store was started with. The
/// failure's message says which, so a test that did not ask for one knows where to look.
public enum SimulatedFailureSource: Sendable, Equatable {
    /// `mockstore control fail` (`POST /test/v1/failures`).
    case testControl
    /// The `.storekit` file's StoreKit errors (`_storeKitErrors`).
    case catalogueStoreKitErrors
    /// The `.storekit` file's `_failTransactionsEnabled` (purchases fail).
    case catalogueFailTransactions

    /// `source` in the failures a control lists: `control` or `catalogue`.
    public var listedAs: FailureSource { self == .testControl ? .control : .catalogue }

    /// Who set it, in words for the failure's message.
    public var words: String {
        switch self {
        case .testControl: "set by a test control"
        case .catalogueStoreKitErrors: "set by the catalogue file's StoreKit errors, _storeKitErrors"
        case .catalogueFailTransactions: "set by the catalogue file's _failTransactionsEnabled"
        }
    }
}
