import Foundation
import StoreWire

/// The query of Get Transaction History (Apple's `TransactionHistoryRequest`) and `revision` for the next page:
/// every field optional, each sent as Apple's query item.
public struct TransactionHistoryQuery: Sendable, Equatable {
    /// Apple's `TransactionHistoryRequest.ProductType` (the query's names, not the transaction's `type`).
    public enum ProductType: String, Sendable, CaseIterable {
        case autoRenewable = "AUTO_RENEWABLE"
        case nonRenewable = "NON_RENEWABLE"
        case consumable = "CONSUMABLE"
        case nonConsumable = "NON_CONSUMABLE"
    }

    /// The order of the answer, by the date of last change.
    public enum Order: String, Sendable {
        case ascending = "ASCENDING"
        case descending = "DESCENDING"
    }

    /// A page's `revision`, to get the next page (or, later, what changed since).
    public var revision: String?
    /// Purchases from this date (milliseconds since 1970).
    public var startDate: Int64?
    /// Purchases before this date (milliseconds since 1970).
    public var endDate: Int64?
    public var productIds: [String]
    public var productTypes: [ProductType]
    public var sort: Order?
    /// Only refunded (`true`) or only not refunded (`false`) transactions.
    public var revoked: Bool?
    public var inAppOwnershipType: InAppOwnershipType?
    public var subscriptionGroupIdentifiers: [String]

    public init(
        revision: String? = nil, startDate: Int64? = nil, endDate: Int64? = nil, productIds: [String] = [],
        productTypes: [ProductType] = [], sort: Order? = nil, revoked: Bool? = nil,
        inAppOwnershipType: InAppOwnershipType? = nil, subscriptionGroupIdentifiers: [String] = []
    ) {
        self.revision = revision
        self.startDate = startDate
        self.endDate = endDate
        self.productIds = productIds
        self.productTypes = productTypes
        self.sort = sort
        self.revoked = revoked
        self.inAppOwnershipType = inAppOwnershipType
        self.subscriptionGroupIdentifiers = subscriptionGroupIdentifiers
    }

    /// The query items, in Apple's names.
    var items: [URLQueryItem] {
        var items: [URLQueryItem] = []
        func add(_ name: String, _ value: String?) {
            if let value { items.append(URLQueryItem(name: name, value: value)) }
        }
        add("revision", revision)
        add("startDate", startDate.map(String.init))
        add("endDate", endDate.map(String.init))
        for id in productIds { add("productId", id) }
        for type in productTypes { add("productType", type.rawValue) }
        add("sort", sort?.rawValue)
        add("revoked", revoked.map { $0 ? "true" : "false" })
        add("inAppOwnershipType", inAppOwnershipType?.rawValue)
        for group in subscriptionGroupIdentifiers { add("subscriptionGroupIdentifier", group) }
        return items
    }
}
