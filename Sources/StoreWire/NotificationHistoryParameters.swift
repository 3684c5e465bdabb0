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
