import MockStoreHTTP
import Signing
import StoreWire

/// The query of Get Transaction History, read and checked as Apple does (each bad parameter has its error code).
struct HistoryQuery {
    var revision: Int64?
    var startDate: Int64?
    var endDate: Int64?
    var productIds: [String] = []
    /// The transaction types the request keeps.
    var productTypes: [ProductType] = []
    var ascending = true
    var revoked: Bool?
    var ownershipType: InAppOwnershipType?
    var subscriptionGroupIds: [String] = []

    /// The `productType` query values (Apple's `TransactionHistoryRequest.ProductType`) and the types they keep.
    static let productTypes: [HistoryProductType: ProductType] = [
        .consumable: .consumable, .nonConsumable: .nonConsumable, .nonRenewable: .nonRenewingSubscription,
        .autoRenewable: .autoRenewableSubscription,
    ]

    /// The request's query, each value checked: one the store cannot read throws Apple's error for it.
    init(_ parameters: TransactionHistoryParameters) throws(MockStoreError) {
        if let text = parameters.revision {
            guard let revision = Self.revision(text) else { throw .serverAPI(.invalidRevision) }
            self.revision = revision
        }
        startDate = try Self.date(parameters.startDate, invalid: .invalidStartDate)
        endDate = try Self.date(parameters.endDate, invalid: .invalidEndDate)
        guard !parameters.productId.contains(where: \.isEmpty) else { throw .serverAPI(.invalidProductIdFilter) }
        productIds = parameters.productId
        productTypes = try parameters.productType.map { (type) throws(MockStoreError) in
            guard let kept = Self.productTypes[type] else { throw .serverAPI(.invalidProductType) }
            return kept
        }
        if let sort = parameters.sort {
            guard sort.isRecognized else { throw .serverAPI(.invalidSort) }
            ascending = sort == .ascending
        }
        if let text = parameters.revoked {
            switch text.lowercased() {
            case "true": revoked = true
            case "false": revoked = false
            default: throw .serverAPI(.invalidRevoked)
            }
        }
        if let ownership = parameters.inAppOwnershipType {
            guard ownership.isRecognized else { throw .serverAPI(.invalidOwnershipType) }
            ownershipType = ownership
        }
        subscriptionGroupIds = parameters.subscriptionGroupIdentifier
        if let startDate, let endDate, startDate > endDate {
            throw .serverAPI(.startDateAfterEndDate)
        }
    }

    /// A date given as milliseconds since 1970 (none when not given), or `invalid` when `text` is not one.
    private static func date(_ text: String?, invalid: MockStoreError.ServerAPIRefusal) throws(MockStoreError) -> Int64?
    {
        guard let text else { return nil }
        guard let date = Int64(text), date >= 0 else { throw .serverAPI(invalid) }
        return date
    }

    func matches(_ transaction: StoredTransaction) -> Bool {
        if let startDate, transaction.purchaseDate < startDate { return false }
        if let endDate, transaction.purchaseDate >= endDate { return false }
        if !productIds.isEmpty && !productIds.contains(transaction.productId) { return false }
        if !productTypes.isEmpty && !productTypes.contains(transaction.productType) { return false }
        if let revoked, revoked != (transaction.revocationDate != nil) { return false }
        if let ownershipType, ownershipType != transaction.inAppOwnershipType { return false }
        if !subscriptionGroupIds.isEmpty,
            !subscriptionGroupIds.contains(transaction.subscription?.subscriptionGroupIdentifier ?? "")
        {
            return false
        }
        return true
    }

    // MARK: Revision tokens

    private static let historyPrefix = "mockstore-history:"
    private static let refundPrefix = "mockstore-refunds:"

    /// An opaque token for "after change number `sequence`".
    static func revisionToken(_ sequence: Int64) -> String {
        OpaqueToken.encode(historyPrefix, String(sequence))
    }

    static func revision(_ token: String) -> Int64? {
        OpaqueToken.number(historyPrefix, token)
    }

    /// An opaque token for "after the refund of (`revocationDate`, serial)".
    static func refundToken(_ key: (Int64, Int64)) -> String {
        OpaqueToken.encode(refundPrefix, "\(key.0):\(key.1)")
    }

    static func refundKey(_ token: String) -> (Int64, Int64)? {
        guard let parts = OpaqueToken.decode(refundPrefix, token)?.split(separator: ":"), parts.count == 2,
            let date = Int64(parts[0]), let serial = Int64(parts[1])
        else { return nil }
        return (date, serial)
    }
}
