import Foundation

extension Transaction {
    /// StoreKit 2's `Transaction.Transactions`: an asynchronous sequence of signed transactions whose iteration
    /// never throws. ``Transaction/unfinished``, ``Transaction/all`` and ``Transaction/currentEntitlements`` end;
    /// ``Transaction/updates`` does not.
    public struct Transactions: AsyncSequence, Sendable {
        public typealias Element = VerificationResult<Transaction>

        let source: TransactionSource

        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: source) }

        /// The iterator: each ``next()`` waits for the next transaction, or ends the sequence with nil.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let source: TransactionSource
            var buffer: [VerificationResult<Transaction>] = []
            var fetched = false
            var cursor: String?
            /// Whether this iterator is the launch's first look at the updates (taken once, on its first page).
            var isLaunch: Bool?

            init(source: TransactionSource, takesLaunch: Bool = true) {
                self.source = source
                // A listener that is not the app's own (subscription statuses) never takes the launch's transactions.
                if !takesLaunch { isLaunch = false }
            }

            public mutating func next() async -> VerificationResult<Transaction>? {
                if case .updates = source { return await nextUpdate() }
                if !fetched {
                    fetched = true
                    buffer = await source.fetch()
                }
                return buffer.isEmpty ? nil : buffer.removeFirst()
            }

            /// The next change, waiting for one: the launch's unfinished transactions first, then each change.
            private mutating func nextUpdate() async -> VerificationResult<Transaction>? {
                while buffer.isEmpty {
                    if Task.isCancelled { return nil }
                    guard let session = try? MockStoreKitSession.shared() else { return nil }
                    if isLaunch == nil { isLaunch = session.takeLaunch() }
                    do {
                        let page = try await session.client.updates(after: cursor)
                        let found = page.signedTransactions.compactMap(session.transaction)
                        // Before this launch's first page, only the position is taken unless this is the launch.
                        if cursor != nil || isLaunch == true { buffer = found }
                        cursor = page.cursor
                        if buffer.isEmpty && page.hasMore != true { try await wait(session) }
                    } catch {
                        // As StoreKit's updates: a store out of reach is tried again, never thrown.
                        do { try await wait(session) } catch { return nil }
                    }
                }
                return buffer.removeFirst()
            }

            /// Takes the store's position now (not the launch's transactions), so every change after this call is
            /// handed over; false when the store cannot be reached. For tests, which must know a listener is in place.
            mutating func takePosition() async -> Bool {
                guard cursor == nil, let session = try? MockStoreKitSession.shared(),
                    let page = try? await session.client.updates(after: nil)
                else { return cursor != nil }
                if isLaunch == nil { isLaunch = false }
                cursor = page.cursor
                return true
            }

            private func wait(_ session: MockStoreKitSession) async throws {
                try await Task.sleep(nanoseconds: UInt64(session.configuration.updatesInterval * 1_000_000_000))
            }
        }
    }

    /// Unfinished transactions once after the app starts, then each transaction created or changed outside a
    /// purchase call as it happens: purchases made elsewhere, Ask to Buy approvals, refunds and their reversals.
    public static var updates: Transaction.Transactions { Transactions(source: .updates) }

    /// Every transaction not yet finished.
    public static var unfinished: Transaction.Transactions { Transactions(source: .unfinished) }

    /// Every transaction of the customer for this app: finished consumables only with
    /// ``MockStoreKitConfiguration/includesConsumableInAppPurchaseHistory`` (Info.plist's
    /// `SKIncludeConsumableInAppPurchaseHistory`).
    public static var all: Transaction.Transactions { Transactions(source: .all) }

    /// The latest transaction of each product the customer is entitled to now (no consumables).
    public static var currentEntitlements: Transaction.Transactions { Transactions(source: .currentEntitlements) }

    /// The customer's current entitlements to `productID`.
    public static func currentEntitlements(for productID: String) -> Transaction.Transactions {
        Transactions(source: .currentEntitlementsFor(productID))
    }

    /// The customer's current entitlement to `productID`, or nil when there is none (deprecated in StoreKit for
    /// ``currentEntitlements(for:)``, and kept as StoreKit keeps it).
    public static func currentEntitlement(for productID: String) async -> VerificationResult<Transaction>? {
        await TransactionSource.currentEntitlementsFor(productID).fetch().last
    }

    /// The customer's latest transaction for `productID`, or nil when there is none. Of two bought in the same
    /// millisecond, the one with the higher id (the store numbers its transactions in order).
    public static func latest(for productID: String) async -> VerificationResult<Transaction>? {
        await TransactionSource.all.fetch().filter { $0.unsafePayloadValue.productID == productID }
            .max {
                ($0.unsafePayloadValue.purchaseDate, $0.unsafePayloadValue.id)
                    < ($1.unsafePayloadValue.purchaseDate, $1.unsafePayloadValue.id)
            }
    }
}

/// Where a ``Transaction/Transactions`` sequence takes its transactions from.
enum TransactionSource: Sendable {
    case updates
    case unfinished
    case all
    case currentEntitlements
    case currentEntitlementsFor(String)

    /// The transactions of a sequence that ends; none when the store cannot be reached (the sequences never throw).
    func fetch() async -> [VerificationResult<Transaction>] {
        guard let session = try? MockStoreKitSession.shared() else { return [] }
        let signed: [String]?
        switch self {
        case .updates: signed = []
        case .unfinished: signed = try? await session.client.unfinished()
        case .all:
            signed = try? await session.client.all(
                includingConsumableHistory: session.configuration.includesConsumableInAppPurchaseHistory)
        case .currentEntitlements, .currentEntitlementsFor:
            signed = try? await session.client.currentEntitlements()
        }
        let results = (signed ?? []).compactMap(session.transaction)
        guard case .currentEntitlementsFor(let productID) = self else { return results }
        return results.filter { $0.unsafePayloadValue.productID == productID }
    }
}
