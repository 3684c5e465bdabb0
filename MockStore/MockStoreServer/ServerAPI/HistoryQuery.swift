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
    static let productTypeNames: [String: ProductType] = [
        "CONSUMABLE": .consumable, "NON_CONSUMABLE": .nonConsumable, "NON_RENEWABLE": .nonRenewingSubscription,
        "AUTO_RENEWABLE": .autoRenewableSubscription,
    ]

    init(_ query: [HTTPRequest.QueryItem]) throws(MockStoreError) {
        for item in query {
            let value = item.value ?? ""
            switch item.name {
            case "revision":
                guard let revision = Self.revision(value) else {
                    throw .serverAPI(.invalidRevision)
                }
                self.revision = revision
            case "startDate":
                guard let date = Int64(value), date >= 0 else {
                    throw .serverAPI(.invalidStartDate)
                }
                startDate = date
            case "endDate":
                guard let date = Int64(value), date >= 0 else {
                    throw .serverAPI(.invalidEndDate)
                }
                endDate = date
            case "productId":
                guard !value.isEmpty else {
                    throw .serverAPI(.invalidProductIdFilter)
                }
                productIds.append(value)
            case "productType":
                guard let type = Self.productTypeNames[value] else {
                    throw .serverAPI(.invalidProductType)
                }
                productTypes.append(type)
            case "sort":
                guard value == "ASCENDING" || value == "DESCENDING" else {
                    throw .serverAPI(.invalidSort)
                }
                ascending = value == "ASCENDING"
            case "revoked":
                switch value.lowercased() {
                case "true": revoked = true
                case "false": revoked = false
                default: throw .serverAPI(.invalidRevoked)
                }
            case "inAppOwnershipType":
                let ownership = InAppOwnershipType(rawValue: value)
                guard ownership.isRecognized else {
                    throw .serverAPI(.invalidOwnershipType)
                }
                ownershipType = ownership
            case "subscriptionGroupIdentifier":
                subscriptionGroupIds.append(value)
            default:
                break  // Apple ignores parameters it does not know
            }
        }
        if let startDate, let endDate, startDate > endDate {
            throw .serverAPI(.startDateAfterEndDate)
        }
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
