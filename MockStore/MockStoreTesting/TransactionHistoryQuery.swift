import StoreWire

/// The query of Get Transaction History (Apple's `TransactionHistoryRequest`) and `revision` for the next page:
/// every field optional, each sent as Apple's query item.
public struct TransactionHistoryQuery: Sendable, Equatable {
    /// Apple's `TransactionHistoryRequest.ProductType` (the query's names, not the transaction's `type`).
    public typealias ProductType = HistoryProductType

    /// The order of the answer, by the date of last change.
    public typealias Order = HistorySortOrder

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

    /// The endpoint's parameters: the query through the transaction `transactionId`.
    func parameters(transactionId: String) -> TransactionHistoryParameters {
        TransactionHistoryParameters(
            transactionId: transactionId, revision: revision, startDate: startDate.map(String.init),
            endDate: endDate.map(String.init), productId: productIds, productType: productTypes, sort: sort,
            revoked: revoked.map { $0 ? "true" : "false" }, inAppOwnershipType: inAppOwnershipType,
            subscriptionGroupIdentifier: subscriptionGroupIdentifiers)
    }
}
