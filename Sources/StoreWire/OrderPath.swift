/// `{orderId}`: the order number on the customer's receipt.
public struct OrderPath: PathOnlyParameters, Equatable {
    public var orderId: String
    public init(orderId: String) { self.orderId = orderId }
    public init(pathValues: [String]) { self.init(orderId: pathValues[0]) }
    public var pathValues: [String] { [orderId] }
}
