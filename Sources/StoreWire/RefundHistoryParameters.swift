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
