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
