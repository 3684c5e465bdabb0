import StoreWire

/// The store calls a test control can make fail, named as `SKTestSession`'s `FailableStoreKitAPI` where StoreKit has
/// the API (`finish` and `storefront` are the mock store's own).
public typealias FailableAPI = StoreKitAPI

extension StoreKitAPI {
    /// The `name` of this API in a `.storekit` file's `_storeKitErrors`.
    public var catalogueName: String? {
        switch self {
        case .loadProducts: "Load Products"
        case .purchase: "Purchase"
        case .verification: "Verification"
        case .appStoreSync: "App Store Sync"
        case .appTransaction: "App Transaction"
        case .finish, .storefront, .unrecognized: nil
        }
    }

    /// The API named `name` (`purchase`, `loadProducts`, or the `.storekit` name `Load Products`), any case.
    public init?(named name: String) {
        let wanted = name.lowercased().replacingOccurrences(of: " ", with: "")
        guard let api = Self.knownCases.first(where: { $0.rawValue.lowercased() == wanted }) else { return nil }
        self = api
    }

    /// The failure `error` (as StoreKit names it, see ``StoreKitFailure/parse(_:domains:)``) is for this API; nil
    /// when it names none this API can fail with.
    public func failure(named error: String) -> StoreKitFailure? {
        guard let failure = StoreKitFailure.parse(error, domains: allowedDomains),
            allowedDomains.contains(failure.domain)
        else { return nil }
        return failure
    }

    /// The errors this API can fail with, in words: `StoreKitError (unknown, userCancelled, …); …`.
    public var allowedErrorsDescription: String {
        allowedDomains.map { "\($0.rawValue) (\($0.cases.joined(separator: ", ")))" }.joined(separator: "; ")
    }

    /// Every API's name, in words: `loadProducts, purchase, …`.
    public static let namesDescription = knownCases.map(\.rawValue).joined(separator: ", ")

    /// The errors this API can fail with.
    var allowedDomains: [StoreKitFailure.Domain] {
        switch self {
        case .loadProducts, .appStoreSync, .appTransaction, .finish, .storefront: [.storeKitError]
        case .purchase: [.storeKitError, .purchaseError, .skError]
        case .verification: [.verificationError]
        case .unrecognized: []
        }
    }
}
