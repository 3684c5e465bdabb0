/// `{transactionId}?status=1&status=2`: Get All Subscription Statuses of the customer `transactionId` names, only
/// those with a status given (every one without).
public struct SubscriptionStatusesParameters: EndpointParameters, Equatable {
    public var transactionId: String
    /// The statuses kept, each as given (`1` to `5`): the store says what is wrong with one it cannot read.
    public var status: [String]
    public init(transactionId: String, status: [String] = []) {
        self.transactionId = transactionId
        self.status = status
    }
    /// Only the subscriptions in `statuses` (every one when empty).
    public init(transactionId: String, statuses: [SubscriptionStatus]) {
        self.init(transactionId: transactionId, status: statuses.map { String($0.rawValue) })
    }
    public init(pathValues: [String], query: (String) -> [String]) {
        self.init(transactionId: pathValues[0], status: query("status"))
    }
    public var pathValues: [String] { [transactionId] }
    public var queryItems: [(name: String, value: String)] { status.map { ("status", $0) } }
    public static let queryNames = ["status"]
}
