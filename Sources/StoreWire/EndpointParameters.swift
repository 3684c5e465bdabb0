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
