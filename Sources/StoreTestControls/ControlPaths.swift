import StoreWire

/// `{subscription}`: a subscription, by a transaction id of it or a product id of its group.
public struct SubscriptionReferencePath: PathParameters, Equatable {
    public var subscription: String
    public init(subscription: String) { self.subscription = subscription }
    public init(pathValues: [String]) { self.init(subscription: pathValues[0]) }
    public var pathValues: [String] { [subscription] }
}

/// `{api}`: a StoreKit API a test can make fail (`purchase`, `loadProducts`, …).
public struct FailableAPIPath: PathParameters, Equatable {
    public var api: String
    public init(api: String) { self.api = api }
    public init(pathValues: [String]) { self.init(api: pathValues[0]) }
    public var pathValues: [String] { [api] }
}

/// `{name}`: a customer's name.
public struct CustomerPath: PathParameters, Equatable {
    public var name: String
    public init(name: String) { self.name = name }
    public init(pathValues: [String]) { self.init(name: pathValues[0]) }
    public var pathValues: [String] { [name] }
}
