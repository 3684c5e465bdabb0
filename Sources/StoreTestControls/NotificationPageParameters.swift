import StoreWire

/// `?revision=R&limit=N`: the store's notifications, from the page after the one that gave `revision`, `limit`
/// at most (as given: the store says what is wrong with one it cannot read).
public struct NotificationPageParameters: QueryOnlyParameters, Equatable {
    public var revision: String?
    public var limit: String?
    public init(revision: String? = nil, limit: String? = nil) {
        self.revision = revision
        self.limit = limit
    }
    public init(pathValues: [String], query: (String) -> [String]) {
        self.init(revision: query("revision").first, limit: query("limit").first)
    }
    public var queryItems: [(name: String, value: String)] {
        (revision.map { [("revision", $0)] } ?? []) + (limit.map { [("limit", $0)] } ?? [])
    }
    public static let queryNames = ["revision", "limit"]
}
