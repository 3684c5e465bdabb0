import StoreWire

/// `{subscription}`: a subscription, by a transaction id of it or a product id of its group.
public struct SubscriptionReferencePath: PathOnlyParameters, Equatable {
    public var subscription: String
    public init(subscription: String) { self.subscription = subscription }
    public init(pathValues: [String]) { self.init(subscription: pathValues[0]) }
    public var pathValues: [String] { [subscription] }
}
