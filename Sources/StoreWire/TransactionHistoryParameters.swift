/// `{transactionId}?revision=R&sort=ASCENDING&…`: Get Transaction History (v1 and v2), from the page after the one
/// that gave `revision`, with Apple's `TransactionHistoryRequest` filters. The dates, `revision` and `revoked` are
/// as given, and an enum keeps a value it does not know: the store says what is wrong with one it cannot read.
public struct TransactionHistoryParameters: EndpointParameters, Equatable {
    public var transactionId: String
    /// A page's `revision`, to get the next page.
    public var revision: String?
    /// Purchases from this date (milliseconds since 1970).
    public var startDate: String?
    /// Purchases before this date (milliseconds since 1970).
    public var endDate: String?
    public var productId: [String]
    public var productType: [HistoryProductType]
    public var sort: HistorySortOrder?
    /// `true`: only refunded transactions; `false`: only those not refunded.
    public var revoked: String?
    public var inAppOwnershipType: InAppOwnershipType?
    public var subscriptionGroupIdentifier: [String]

    public init(
        transactionId: String, revision: String? = nil, startDate: String? = nil, endDate: String? = nil,
        productId: [String] = [], productType: [HistoryProductType] = [], sort: HistorySortOrder? = nil,
        revoked: String? = nil, inAppOwnershipType: InAppOwnershipType? = nil,
        subscriptionGroupIdentifier: [String] = []
    ) {
        self.transactionId = transactionId
        self.revision = revision
        self.startDate = startDate
        self.endDate = endDate
        self.productId = productId
        self.productType = productType
        self.sort = sort
        self.revoked = revoked
        self.inAppOwnershipType = inAppOwnershipType
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
    }

    /// A parameter given more than once counts its last value, as the store read the query in order.
    public init(pathValues: [String], query: (String) -> [String]) {
        self.init(
            transactionId: pathValues[0], revision: query("revision").last, startDate: query("startDate").last,
            endDate: query("endDate").last, productId: query("productId"),
            productType: query("productType").map(HistoryProductType.init(rawValue:)),
            sort: query("sort").last.map(HistorySortOrder.init(rawValue:)), revoked: query("revoked").last,
            inAppOwnershipType: query("inAppOwnershipType").last.map(InAppOwnershipType.init(rawValue:)),
            subscriptionGroupIdentifier: query("subscriptionGroupIdentifier"))
    }

    public var pathValues: [String] { [transactionId] }

    public var queryItems: [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        func add(_ name: String, _ values: [String]) { items += values.map { (name, $0) } }
        add("revision", revision.map { [$0] } ?? [])
        add("startDate", startDate.map { [$0] } ?? [])
        add("endDate", endDate.map { [$0] } ?? [])
        add("productId", productId)
        add("productType", productType.map(\.rawValue))
        add("sort", sort.map { [$0.rawValue] } ?? [])
        add("revoked", revoked.map { [$0] } ?? [])
        add("inAppOwnershipType", inAppOwnershipType.map { [$0.rawValue] } ?? [])
        add("subscriptionGroupIdentifier", subscriptionGroupIdentifier)
        return items
    }

    public static let queryNames = [
        "revision", "startDate", "endDate", "productId", "productType", "sort", "revoked", "inAppOwnershipType",
        "subscriptionGroupIdentifier",
    ]
}
