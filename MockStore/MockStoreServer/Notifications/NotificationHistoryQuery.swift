import StoreWire

/// A Get Notification History request, checked as Apple checks it (each mistake has Apple's error code).
struct NotificationHistoryQuery {
    var startDate: Int64
    var endDate: Int64
    var notificationType: NotificationType?
    var notificationSubtype: NotificationSubtype?
    var transactionId: String?
    var onlyFailures: Bool
    /// The row number the page starts after (from `paginationToken`).
    var after: Int64

    /// How far back the history goes: 180 days in production, 30 in the sandbox.
    static func retentionDays(production: Bool) -> Int64 { production ? 180 : 30 }

    static let dayMilliseconds: Int64 = 86_400_000

    /// - Throws: ``MockStoreError``: 4000015 / 4000016 for a missing or negative start / end date, 4000012 for a
    ///   start further back than the history keeps, 4000013 for a start not before the end, 4000018 for an
    ///   unknown type or a subtype that does not go with it (or has none), 4000019 for a transaction id with a
    ///   type, 4000006 for a transaction id that is not numeric, 4000014 for a bad pagination token.
    init(_ body: NotificationHistoryRequestBody, paginationToken: String?, now: Int64, production: Bool)
        throws(MockStoreError)
    {
        guard let startDate = body.startDate, startDate >= 0 else {
            throw .serverAPI(.invalidStartDate)
        }
        guard let endDate = body.endDate, endDate >= 0 else {
            throw .serverAPI(.invalidEndDate)
        }
        guard startDate < endDate else {
            throw .serverAPI(.endDatePrecedesStartDate)
        }
        let days = Self.retentionDays(production: production)
        guard startDate >= now - days * Self.dayMilliseconds else {
            throw .serverAPI(.startDateTooFarInPast(days: days))
        }
        if let type = body.notificationType {
            guard let subtypes = NotificationTypes.subtypesByType[type] else {
                throw .serverAPI(.invalidNotificationType)
            }
            if let subtype = body.notificationSubtype, !subtypes.contains(subtype) {
                throw .serverAPI(.notASubtype(subtype, of: type))
            }
        } else if body.notificationSubtype != nil {
            throw .serverAPI(.subtypeWithoutType)
        }
        if let transactionId = body.transactionId {
            guard body.notificationType == nil else {
                throw .serverAPI(.multipleFilters)
            }
            guard MockStore.isTransactionId(transactionId) else { throw .invalidTransactionId(transactionId) }
        }
        after = 0
        if let paginationToken {
            guard let row = Self.row(paginationToken) else {
                throw .serverAPI(.invalidPaginationToken)
            }
            after = row
        }
        self.startDate = startDate
        self.endDate = min(endDate, now + 1)
        notificationType = body.notificationType
        notificationSubtype = body.notificationSubtype
        transactionId = body.transactionId
        onlyFailures = body.onlyFailures ?? false
    }

    /// Whether `notification` belongs in the answer (before paging).
    func matches(_ notification: StoredNotification) -> Bool {
        guard notification.createdAt >= startDate, notification.createdAt < endDate else { return false }
        if let notificationType, notification.type != notificationType { return false }
        if let notificationSubtype, notification.subtype != notificationSubtype { return false }
        // Which customer's they are is the caller's to check (it knows the customer's transactions).
        if transactionId != nil, notification.transactionId == nil { return false }
        if onlyFailures, notification.status == .delivered { return false }
        return true
    }

    // MARK: Pagination tokens

    private static let prefix = "mockstore-notifications:"

    /// An opaque token for "after notification row `row`".
    static func token(after row: Int64) -> String {
        OpaqueToken.encode(prefix, String(row))
    }

    static func row(_ token: String) -> Int64? {
        OpaqueToken.number(prefix, token)
    }
}
