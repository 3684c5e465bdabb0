import StoreWire

/// `{subscription}`: a subscription, by a transaction id of it or a product id of its group.
public struct SubscriptionReferencePath: PathOnlyParameters, Equatable {
    public var subscription: String
    public init(subscription: String) { self.subscription = subscription }
    public init(pathValues: [String]) { self.init(subscription: pathValues[0]) }
    public var pathValues: [String] { [subscription] }
}

/// `{api}`: a StoreKit API a test can make fail (`purchase`, `loadProducts`, …).
public struct FailableAPIPath: PathOnlyParameters, Equatable {
    public var api: String
    public init(api: String) { self.api = api }
    public init(pathValues: [String]) { self.init(api: pathValues[0]) }
    public var pathValues: [String] { [api] }
}

/// `{name}`: a customer's name.
public struct CustomerPath: PathOnlyParameters, Equatable {
    public var name: String
    public init(name: String) { self.name = name }
    public init(pathValues: [String]) { self.init(name: pathValues[0]) }
    public var pathValues: [String] { [name] }
}

/// `?revision=R&limit=N`: the store's notifications, from the page after the one that gave `revision`, `limit`
/// at most (as given: the store says what is wrong with one it cannot read).
public struct NotificationPageParameters: QueryOnlyParameters, Equatable {
    public var revision: String?
    public var limit: String?
    public init(revision: String? = nil, limit: String? = nil) {
        self.revision = revision
        self.limit = limit
    }
    public init(pathValues: [String], query: (String) -> [String]) {
        self.init(revision: query("revision").first, limit: query("limit").first)
    }
    public var queryItems: [(name: String, value: String)] {
        (revision.map { [("revision", $0)] } ?? []) + (limit.map { [("limit", $0)] } ?? [])
    }
    public static let queryNames = ["revision", "limit"]
}
