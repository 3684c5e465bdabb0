/// `{transactionId}`: any transaction id.
public struct TransactionPath: PathOnlyParameters, Equatable {
    public var transactionId: String
    public init(transactionId: String) { self.transactionId = transactionId }
    public init(pathValues: [String]) { self.init(transactionId: pathValues[0]) }
    public var pathValues: [String] { [transactionId] }
}
