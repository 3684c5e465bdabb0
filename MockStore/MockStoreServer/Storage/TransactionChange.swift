/// One entry of the store's change log: every creation or change of a transaction gets the next number
/// of a store-wide sequence that never goes back (SQLite `AUTOINCREMENT`), so a cursor over it is stable
/// across restarts. This is what a transaction-updates feed reads.
public struct TransactionChange: Equatable, Sendable {
    /// What happened to the transaction.
    public enum Kind: String, Sendable, CaseIterable {
        /// Made by a purchase (paid, or pending).
        case created
        /// Finished by the app.
        case finished
        /// A pending purchase was approved (Ask to Buy).
        case approved
        /// A pending purchase was declined (Ask to Buy).
        case declined
        /// Refunded: revocation fields set.
        case revoked
        /// An interrupted purchase was resolved: now paid.
        case resolved
        /// A refund was reversed: revocation fields cleared.
        case reinstated
        /// A subscription's transaction changed (made to expire now).
        case subscriptionChanged

        /// Whether the app learns of this change through the updates feed (it happened outside a purchase call
        /// and leaves a transaction to deliver or take back). Creations count only for outside purchases.
        public var isUpdate: Bool {
            switch self {
            case .approved, .revoked, .resolved, .reinstated, .subscriptionChanged: true
            case .created, .finished, .declined: false
            }
        }
    }

    public var sequence: Int64
    public var transactionId: String
    public var kind: Kind
    /// Milliseconds since 1970.
    public var date: Int64
}
