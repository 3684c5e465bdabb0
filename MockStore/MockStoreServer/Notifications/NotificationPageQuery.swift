import StoreWire

/// A `GET /test/v1/notifications` request: which page (after the notification its `revision` token names) and how
/// many at most. Pages follow the notifications' row numbers, which only grow, so walking them while notifications
/// are made neither misses nor repeats one; the last page's token asks later for only those made since.
struct NotificationPageQuery: Equatable {
    /// Notifications on a page unless `limit` says otherwise.
    static let defaultLimit = 100
    /// The most a page holds: what one answer keeps in memory.
    static let largestLimit = 1_000

    /// The row number the page starts after.
    var after: Int64
    var limit: Int

    /// - Throws: ``MockStoreError`` 4000005 (Apple's invalid revision) for a token the store did not make, 400
    ///   for a `limit` that is not 1 to 1,000.
    init(revision: String?, limit: String?) throws(MockStoreError) {
        after = 0
        if let revision {
            guard let row = OpaqueToken.number(Self.prefix, revision) else {
                throw .serverAPI(.invalidRevision)
            }
            after = row
        }
        self.limit = Self.defaultLimit
        if let limit {
            guard let number = Int(limit), (1...Self.largestLimit).contains(number) else {
                throw .invalid(.invalidPageSize(limit, largest: Self.largestLimit))
            }
            self.limit = number
        }
    }

    private static let prefix = "mockstore-test-notifications:"

    /// The token for the page after row `row`.
    static func revision(after row: Int64) -> String {
        OpaqueToken.encode(prefix, String(row))
    }
}
