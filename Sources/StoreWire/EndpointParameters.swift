import Foundation

/// The values of an endpoint's path and query parameters, typed: the client builds the request from one and the
/// store's router hands the handler one, so a parameter is a Swift property on both sides, never a name looked up
/// in a dictionary.
///
/// A conforming type's stored properties are the template's `{…}` segments, in order and named as they are
/// (`TransactionPath.transactionId` for `/inApps/v1/transactions/{transactionId}`), then its ``queryNames``; the
/// names are spelt once, here. EndpointTests checks that every endpoint's are.
public protocol EndpointParameters: Sendable {
    /// The values of the template's parameter segments, in order.
    var pathValues: [String] { get }
    /// The query's items, in order (none when the query is empty).
    var queryItems: [(name: String, value: String)] { get }
    /// The names of the query parameters the type reads, in the order of its properties.
    static var queryNames: [String] { get }
    /// The parameters from the values of the template's parameter segments, in order, and the query's values by
    /// name (`query(name)`: every value given for `name`, in order).
    ///
    /// - Precondition: as many path values as the type has (the template matched, so it has).
    init(pathValues: [String], query: (String) -> [String])
}

/// An endpoint's parameters that are its path's only.
public protocol PathOnlyParameters: EndpointParameters {
    /// The parameters from the values of the template's parameter segments, in order.
    init(pathValues: [String])
}

/// An endpoint's parameters that are its query's only: its path has no `{…}` segment.
public protocol QueryOnlyParameters: EndpointParameters {}

extension QueryOnlyParameters {
    public var pathValues: [String] { [] }
}

extension PathOnlyParameters {
    public init(pathValues: [String], query: (String) -> [String]) { self.init(pathValues: pathValues) }
    public var queryItems: [(name: String, value: String)] { [] }
    public static var queryNames: [String] { [] }
}

/// The parameters of an endpoint whose path has none.
public struct NoParameters: PathOnlyParameters, Equatable {
    public init() {}
    public init(pathValues: [String]) { precondition(pathValues.isEmpty, "no parameters, given \(pathValues)") }
    public var pathValues: [String] { [] }
}

/// `{transactionId}`: any transaction id.
public struct TransactionPath: PathOnlyParameters, Equatable {
    public var transactionId: String
    public init(transactionId: String) { self.transactionId = transactionId }
    public init(pathValues: [String]) { self.init(transactionId: pathValues[0]) }
    public var pathValues: [String] { [transactionId] }
}

/// `{originalTransactionId}`: the id of the first purchase of a subscription or product.
public struct OriginalTransactionPath: PathOnlyParameters, Equatable {
    public var originalTransactionId: String
    public init(originalTransactionId: String) { self.originalTransactionId = originalTransactionId }
    public init(pathValues: [String]) { self.init(originalTransactionId: pathValues[0]) }
    public var pathValues: [String] { [originalTransactionId] }
}

/// `{orderId}`: the order number on the customer's receipt.
public struct OrderPath: PathOnlyParameters, Equatable {
    public var orderId: String
    public init(orderId: String) { self.orderId = orderId }
    public init(pathValues: [String]) { self.init(orderId: pathValues[0]) }
    public var pathValues: [String] { [orderId] }
}

/// `{token}`: the test notification's token, from Request a Test Notification.
public struct TestNotificationPath: PathOnlyParameters, Equatable {
    public var token: String
    public init(token: String) { self.token = token }
    public init(pathValues: [String]) { self.init(token: pathValues[0]) }
    public var pathValues: [String] { [token] }
}

/// `{groupId}`: a subscription group's identifier.
public struct SubscriptionGroupPath: PathOnlyParameters, Equatable {
    public var groupId: String
    public init(groupId: String) { self.groupId = groupId }
    public init(pathValues: [String]) { self.init(groupId: pathValues[0]) }
    public var pathValues: [String] { [groupId] }
}

/// `{productId}/{requestIdentifier}`: a mass renewal-date extension, by its product and the caller's request id.
public struct MassExtensionPath: PathOnlyParameters, Equatable {
    public var productId: String
    public var requestIdentifier: String
    public init(productId: String, requestIdentifier: String) {
        self.productId = productId
        self.requestIdentifier = requestIdentifier
    }
    public init(pathValues: [String]) { self.init(productId: pathValues[0], requestIdentifier: pathValues[1]) }
    public var pathValues: [String] { [productId, requestIdentifier] }
}

/// `?after=CURSOR`: the updates feed from a cursor an earlier answer gave (none: from the start).
public struct UpdatesParameters: QueryOnlyParameters, Equatable {
    public var after: String?
    public init(after: String?) { self.after = after }
    public init(pathValues: [String], query: (String) -> [String]) { self.init(after: query("after").first) }
    public var queryItems: [(name: String, value: String)] { after.map { [("after", $0)] } ?? [] }
    public static let queryNames = ["after"]
}

/// `?includeConsumableHistory=true`: every transaction, finished consumables too.
public struct AllTransactionsParameters: QueryOnlyParameters, Equatable {
    public var includeConsumableHistory: Bool
    public init(includeConsumableHistory: Bool) { self.includeConsumableHistory = includeConsumableHistory }
    public init(pathValues: [String], query: (String) -> [String]) {
        self.init(includeConsumableHistory: query("includeConsumableHistory").first == "true")
    }
    public var queryItems: [(name: String, value: String)] {
        includeConsumableHistory ? [("includeConsumableHistory", "true")] : []
    }
    public static let queryNames = ["includeConsumableHistory"]
}

/// `{transactionId}?revision=R`: Get Refund History, from the page after the one that gave `revision`.
public struct RefundHistoryParameters: EndpointParameters, Equatable {
    public var transactionId: String
    public var revision: String?
    public init(transactionId: String, revision: String? = nil) {
        self.transactionId = transactionId
        self.revision = revision
    }
    public init(pathValues: [String], query: (String) -> [String]) {
        self.init(transactionId: pathValues[0], revision: query("revision").first)
    }
    public var pathValues: [String] { [transactionId] }
    public var queryItems: [(name: String, value: String)] { revision.map { [("revision", $0)] } ?? [] }
    public static let queryNames = ["revision"]
}

/// `?paginationToken=T`: Get Notification History, from the page after the one that gave `paginationToken`.
public struct NotificationHistoryParameters: QueryOnlyParameters, Equatable {
    public var paginationToken: String?
    public init(paginationToken: String? = nil) { self.paginationToken = paginationToken }
    public init(pathValues: [String], query: (String) -> [String]) {
        self.init(paginationToken: query("paginationToken").first)
    }
    public var queryItems: [(name: String, value: String)] {
        paginationToken.map { [("paginationToken", $0)] } ?? []
    }
    public static let queryNames = ["paginationToken"]
}
