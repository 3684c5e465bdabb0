import Foundation
import MockStoreSQLite
import StoreWire

/// Subscriptions in SQLite (schema version 3): the subscription columns of `transactions`, the `subscriptions`
/// table (one row per subscription, its ``SubscriptionState`` as JSON; `customer_subscriptions` from version 4) and
/// the virtual clock's state in `counters`.
extension TransactionStore {
    /// The `transactions` columns version 3 adds, in the order ``subscriptionFields(_:from:)`` reads them.
    static let subscriptionColumns = """
        expires_date, web_order_line_item_id, subscription_group_id, is_upgraded, offer_type, offer_identifier, \
        offer_discount_type, offer_period
        """

    /// Version 3 (issue 17): auto-renewable subscriptions.
    static let version3SQL = """
        ALTER TABLE transactions ADD COLUMN expires_date INTEGER;
        ALTER TABLE transactions ADD COLUMN web_order_line_item_id TEXT;
        ALTER TABLE transactions ADD COLUMN subscription_group_id TEXT;
        ALTER TABLE transactions ADD COLUMN is_upgraded INTEGER NOT NULL DEFAULT 0 CHECK (is_upgraded IN (0, 1));
        ALTER TABLE transactions ADD COLUMN offer_type INTEGER;
        ALTER TABLE transactions ADD COLUMN offer_identifier TEXT;
        ALTER TABLE transactions ADD COLUMN offer_discount_type TEXT;
        ALTER TABLE transactions ADD COLUMN offer_period TEXT;
        CREATE INDEX transactions_by_original ON transactions (original_id, serial);
        CREATE TABLE subscriptions (
            original_transaction_id TEXT PRIMARY KEY NOT NULL,
            group_id TEXT NOT NULL UNIQUE,
            status INTEGER NOT NULL CHECK (status BETWEEN 1 AND 5),
            next_event_at INTEGER,
            state TEXT NOT NULL
        ) STRICT;
        CREATE INDEX subscriptions_due ON subscriptions (next_event_at);
        CREATE TABLE virtual_clock (id INTEGER PRIMARY KEY CHECK (id = 1), state TEXT NOT NULL) STRICT;
        PRAGMA user_version = 3;
        """

    static func subscriptionValues(_ fields: TransactionSubscriptionFields?) -> [SQLiteValue] {
        guard let fields else { return [.null, .null, .null, .integer(0), .null, .null, .null, .null] }
        return [
            .integer(fields.expiresDate), .text(fields.webOrderLineItemId), .text(fields.subscriptionGroupIdentifier),
            .integer(fields.isUpgraded ? 1 : 0), fields.offerType.map { .integer(Int64($0.rawValue)) } ?? .null,
            .optional(fields.offerIdentifier), .optional(fields.offerDiscountType?.rawValue),
            .optional(fields.offerPeriod),
        ]
    }

    static func subscriptionFields(_ row: SQLiteStatement, from first: Int32) -> TransactionSubscriptionFields? {
        guard let group = row.text(at: first + 2), let expires = row.optionalInt64(at: first) else { return nil }
        return TransactionSubscriptionFields(
            expiresDate: expires, webOrderLineItemId: row.text(at: first + 1) ?? "",
            subscriptionGroupIdentifier: group, isUpgraded: row.int64(at: first + 3) != 0,
            offerType: row.optionalInt64(at: first + 4).map { OfferType(rawValue: Int($0)) },
            offerIdentifier: row.text(at: first + 5),
            offerDiscountType: row.text(at: first + 6).map(OfferDiscountType.init(rawValue:)),
            offerPeriod: row.text(at: first + 7))
    }

    /// `fields` with the web order line item id of the transaction numbered `serial` (one per period bought).
    static func numbered(_ fields: TransactionSubscriptionFields, serial: Int64) -> TransactionSubscriptionFields {
        var fields = fields
        if fields.webOrderLineItemId.isEmpty {
            fields.webOrderLineItemId = String(1_000_000_000_000_000 + serial)
        }
        return fields
    }

    // MARK: Subscriptions

    /// Every subscription of the customer, by group.
    public func subscriptionStates() throws -> [SubscriptionState] {
        try statement("SELECT state FROM customer_subscriptions WHERE customer_id = ?1 ORDER BY group_id")
            .query([.integer(actingFor.id)]) { row in try Self.decodeState(row.text(at: 0) ?? "") }
    }

    /// The customer's subscription of `groupId`, if they ever had one.
    public func subscriptionState(groupId: String) throws -> SubscriptionState? {
        try statement("SELECT state FROM customer_subscriptions WHERE customer_id = ?1 AND group_id = ?2")
            .query([.integer(actingFor.id), .text(groupId)]) { row in try Self.decodeState(row.text(at: 0) ?? "") }
            .first
    }

    /// Every customer's subscriptions the clock changes by `date` (only customer `customerId`'s when given), each with
    /// its customer (the clock runs for all), the earliest next event first, at most `limit`.
    func dueSubscriptionStates(until date: Int64, limit: Int = .max, customerId: Int64? = nil) throws
        -> [(customerId: Int64, state: SubscriptionState)]
    {
        try statement(
            """
            SELECT customer_id, state FROM customer_subscriptions
            WHERE next_event_at IS NOT NULL AND next_event_at <= ?1 AND (?3 IS NULL OR customer_id = ?3)
            ORDER BY next_event_at LIMIT ?2
            """
        ).query([.integer(date), .integer(Int64(limit)), customerId.map(SQLiteValue.integer) ?? .null]) { row in
            (row.int64(at: 0), try Self.decodeState(row.text(at: 1) ?? ""))
        }
    }

    /// Every customer's subscriptions, each with its customer (a mass extension reaches every subscriber).
    func everyCustomersSubscriptionStates() throws -> [(customerId: Int64, state: SubscriptionState)] {
        try statement("SELECT customer_id, state FROM customer_subscriptions ORDER BY customer_id, group_id")
            .query { row in (row.int64(at: 0), try Self.decodeState(row.text(at: 1) ?? "")) }
    }

    /// Writes a subscription's state for the customer; `nextEventAt` is when the clock next changes it.
    public func saveSubscription(_ state: SubscriptionState, nextEventAt: Int64?) throws {
        let json = String(decoding: try JSONEncoder().encode(state), as: UTF8.self)
        try statement(
            """
            INSERT INTO customer_subscriptions (original_transaction_id, group_id, status, next_event_at, state,
                customer_id)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            ON CONFLICT (original_transaction_id) DO UPDATE SET group_id = ?2, status = ?3, next_event_at = ?4,
                state = ?5
            """
        ).run([
            .text(state.originalTransactionId), .text(state.groupId), .integer(Int64(state.status.rawValue)),
            nextEventAt.map(SQLiteValue.integer) ?? .null, .text(json), .integer(actingFor.id),
        ])
    }

    /// Sets the `appAccountToken` the subscription `originalTransactionId` renews with (Set App Account Token), its
    /// next event left as it is; nothing for a purchase that is no subscription.
    func setSubscriptionAppAccountToken(originalTransactionId: String, to token: String) throws {
        let rows = try statement(
            "SELECT state, next_event_at FROM customer_subscriptions WHERE original_transaction_id = ?1"
        ).query([.text(originalTransactionId)]) { row in
            (try Self.decodeState(row.text(at: 0) ?? ""), row.optionalInt64(at: 1))
        }
        guard var (state, nextEventAt) = rows.first else { return }
        state.appAccountToken = token
        try saveSubscription(state, nextEventAt: nextEventAt)
    }

    /// The earliest date the clock changes a subscription, any customer's.
    public func nextSubscriptionEventDate() throws -> Int64? {
        try statement("SELECT MIN(next_event_at) FROM customer_subscriptions").query { $0.optionalInt64(at: 0) }
            .first ?? nil
    }

    /// The transactions of one subscription (renewals, upgrades), oldest first.
    public func transactions(originalTransactionId: String) throws -> [StoredTransaction] {
        try statement(
            "SELECT \(Self.columns) FROM transactions WHERE original_id = ?1 AND status = 'purchased' ORDER BY serial"
        ).query([.text(originalTransactionId)], row: Self.row)
    }

    /// Applies a lifecycle step's change to a recorded transaction, logging it as `kind`.
    func amend(_ amendment: TransactionAmendment, date: Int64) throws -> StoredTransaction? {
        var assignments: [String] = []
        var values: [SQLiteValue] = []
        func set(_ column: String, _ value: SQLiteValue) {
            values.append(value)
            assignments.append("\(column) = ?\(values.count + 1)")
        }
        if amendment.isUpgraded { set("is_upgraded", .integer(1)) }
        if let date = amendment.revocationDate {
            set("revocation_date", .integer(date))
            set("revocation_reason", .integer(Int64(RevocationReason.refundedForOtherReason.rawValue)))
            set(
                "revocation_type",
                amendment.revocationPercentage == nil ? .null : .text(RevocationType.refundProrated.rawValue))
            set("revocation_percentage", amendment.revocationPercentage.map { .integer(Int64($0)) } ?? .null)
        }
        if let expires = amendment.expiresDate { set("expires_date", .integer(expires)) }
        guard !assignments.isEmpty else { return try transaction(id: amendment.transactionId) }
        let kind: TransactionChange.Kind = amendment.revocationDate == nil ? .subscriptionChanged : .revoked
        return try update(
            id: amendment.transactionId, kind: kind, date: date, assignments: assignments.joined(separator: ", "),
            values: values)
    }

    // MARK: Virtual clock

    /// The clock's persisted state, if it was ever moved or its rate set (`reset` and `clear` keep it: virtual
    /// time never goes back).
    func clockState() throws -> VirtualClock.State? {
        guard
            let text = try statement("SELECT state FROM virtual_clock WHERE id = 1").query(row: { $0.text(at: 0) })
                .first
                ?? nil
        else { return nil }
        return try? JSONDecoder().decode(VirtualClock.State.self, from: Data(text.utf8))
    }

    func saveClockState(_ state: VirtualClock.State) throws {
        let json = String(decoding: try JSONEncoder().encode(state), as: UTF8.self)
        try statement(
            "INSERT INTO virtual_clock (id, state) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET state = ?1"
        ).run([.text(json)])
    }

    private static func decodeState(_ text: String) throws -> SubscriptionState {
        do {
            return try JSONDecoder().decode(SubscriptionState.self, from: Data(text.utf8))
        } catch {
            throw SQLiteError(
                code: SQLiteError.corruptCode, message: "unreadable subscription state",
                operation: "reading a subscription")
        }
    }

    /// Forgets a subscription's state (its transactions stay): a lapsed family-shared subscription giving way to
    /// one of the customer's own, or the other way round (one subscription per group).
    func deleteSubscription(originalTransactionId: String) throws {
        try statement("DELETE FROM customer_subscriptions WHERE original_transaction_id = ?1").run([
            .text(originalTransactionId)
        ]
        )
    }
}
