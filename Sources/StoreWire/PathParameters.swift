/// The values of an endpoint's path parameters, typed: the client builds the path from one and the store's router
/// hands the handler one, so a parameter is a Swift property on both sides, never a name looked up in a dictionary.
///
/// A conforming type's stored properties are the template's `{…}` segments, in order and named as they are
/// (`TransactionPath.transactionId` for `/inApps/v1/transactions/{transactionId}`); EndpointTests checks that every
/// endpoint's are.
public protocol PathParameters: Sendable {
    /// The values of the template's parameter segments, in order.
    var pathValues: [String] { get }
    /// The parameters from the values of the template's parameter segments, in order.
    ///
    /// - Precondition: as many values as the type has parameters (the template matched, so it has).
    init(pathValues: [String])
}

/// The parameters of an endpoint whose path has none.
public struct NoPathParameters: PathParameters, Equatable {
    public init() {}
    public init(pathValues: [String]) { precondition(pathValues.isEmpty, "no parameters, given \(pathValues)") }
    public var pathValues: [String] { [] }
}

/// `{transactionId}`: any transaction id.
public struct TransactionPath: PathParameters, Equatable {
    public var transactionId: String
    public init(transactionId: String) { self.transactionId = transactionId }
    public init(pathValues: [String]) { self.init(transactionId: pathValues[0]) }
    public var pathValues: [String] { [transactionId] }
}

/// `{originalTransactionId}`: the id of the first purchase of a subscription or product.
public struct OriginalTransactionPath: PathParameters, Equatable {
    public var originalTransactionId: String
    public init(originalTransactionId: String) { self.originalTransactionId = originalTransactionId }
    public init(pathValues: [String]) { self.init(originalTransactionId: pathValues[0]) }
    public var pathValues: [String] { [originalTransactionId] }
}

/// `{orderId}`: the order number on the customer's receipt.
public struct OrderPath: PathParameters, Equatable {
    public var orderId: String
    public init(orderId: String) { self.orderId = orderId }
    public init(pathValues: [String]) { self.init(orderId: pathValues[0]) }
    public var pathValues: [String] { [orderId] }
}

/// `{token}`: the test notification's token, from Request a Test Notification.
public struct TestNotificationPath: PathParameters, Equatable {
    public var token: String
    public init(token: String) { self.token = token }
    public init(pathValues: [String]) { self.init(token: pathValues[0]) }
    public var pathValues: [String] { [token] }
}

/// `{groupId}`: a subscription group's identifier.
public struct SubscriptionGroupPath: PathParameters, Equatable {
    public var groupId: String
    public init(groupId: String) { self.groupId = groupId }
    public init(pathValues: [String]) { self.init(groupId: pathValues[0]) }
    public var pathValues: [String] { [groupId] }
}

/// `{productId}/{requestIdentifier}`: a mass renewal-date extension, by its product and the caller's request id.
public struct MassExtensionPath: PathParameters, Equatable {
    public var productId: String
    public var requestIdentifier: String
    public init(productId: String, requestIdentifier: String) {
        self.productId = productId
        self.requestIdentifier = requestIdentifier
    }
    public init(pathValues: [String]) { self.init(productId: pathValues[0], requestIdentifier: pathValues[1]) }
    public var pathValues: [String] { [productId, requestIdentifier] }
}
