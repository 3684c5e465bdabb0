/// `{originalTransactionId}`: the id of the first purchase of a subscription or product.
public struct OriginalTransactionPath: PathOnlyParameters, Equatable {
    public var originalTransactionId: String
    public init(originalTransactionId: String) { self.originalTransactionId = originalTransactionId }
    public init(pathValues: [String]) { self.init(originalTransactionId: pathValues[0]) }
    public var pathValues: [String] { [originalTransactionId] }
}
