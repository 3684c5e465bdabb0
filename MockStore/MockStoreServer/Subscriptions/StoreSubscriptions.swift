import Foundation
import MockStoreHTTP
import MockStoreSQLite
import StoreKitCatalogue
import StoreTestControls
import StoreWire

/// Auto-renewable subscriptions: buying one, the events the clock and the controls bring about, and how each
/// step is recorded, signed and announced. The rules are ``SubscriptionLifecycle``'s; this applies its steps.
public struct StoreSubscriptions: SubscriptionStorePart {
    let configuration: MockStore.Configuration
    let database: GroupCommit<TransactionStore>
    let runtime: SubscriptionRuntime
    let settings: StoreSettings
    let billingSettings: StoreBillingSettings
    let signing: StoreSigning
    let notifications: StoreNotifications
    let offers: StoreOffers

    // MARK: Buying

    /// Buys `product` (an auto-renewable): SUBSCRIBED (INITIAL_BUY or RESUBSCRIBE) when nothing of its group is in
    /// force; a change of plan when another product of the group is (an upgrade or same-period crossgrade now, a
    /// downgrade at the next renewal); the transaction in force when it is this product already.
    func subscribeOrChange(
        _ product: CatalogueProduct, _ request: PurchaseRequestBody, _ database: TransactionStore,
        origin: StoredTransaction.Origin, settling pending: PendingSettlement? = nil
    ) throws -> StoredTransaction {
        let now = nowMilliseconds
        // The buyer's own due events only: the rest of a wave falling due together is the timer's, in batches, and
        // a purchase does not wait for it.
        _ = try runDueEvents(until: now, onlyFor: database.actingFor.id, database)
        guard let subscription = SubscriptionProduct(product) else {
            throw MockStoreError.invalid(.subscriptionWithoutGroup(productId: product.id))
        }
        let existing = try ownSubscription(groupId: subscription.groupId, database)
        let step: SubscriptionStep
        if let option = request.offer {
            step = try offers.redeemStep(option, product, existing, request, at: now, signed: origin == .app, database)
        } else if let existing, existing.status == .active || existing.status == .billingGracePeriod {
            step = try lifecycleStep { () throws(SubscriptionLifecycleError) in
                try subscriptionLifecycle.apply(.changeProduct(to: subscription.id, at: now), to: existing)
            }
        } else {
            let context = try settings.purchaseContext(appAccountToken: request.appAccountToken, database)
            step = try lifecycleStep { () throws(SubscriptionLifecycleError) in
                try subscriptionLifecycle.subscribe(subscription.id, previous: existing, at: now, context: context)
            }
        }
        if pending != nil && step.newTransaction == nil {
            throw MockStoreError.conflict(.subscribedAlready)
        }
        let (_, transaction) = try commit(step, date: now, origin: origin, settling: pending, database)
        guard let transaction else { throw MockStoreError.transactionNotFound }
        return transaction
    }

    // MARK: The clock

    /// Runs every renewal and expiry due by `date` (only customer `customerId`'s, when given), earliest first, each
    /// at its own date; at most `limit` of them (``maximumEventsPerRun`` unless a smaller batch is asked for).
    func runDueEvents(
        until date: Int64, limit: Int = maximumEventsPerRun, onlyFor customerId: Int64? = nil,
        _ database: TransactionStore
    ) throws -> [TestSubscriptionEventRecord] {
        var records: [TestSubscriptionEventRecord] = []
        // Only test controls change the billing settings, never an event: read them once for the run.
        let billing = try billingSettings.inForce(database)
        // The clock runs for every customer; each event acts for its subscription's, then the call's own again.
        let actingFor = database.actingFor
        var window = Self.dueWindow
        while records.count < min(limit, Self.maximumEventsPerRun) {
            // The earliest few by the due index, not every due subscription: with 600 due at once, reading them all
            // for each event made a wave cost the square of its size.
            let rows = try database.dueSubscriptionStates(until: date, limit: window, customerId: customerId)
            let due = rows.compactMap { customerId, state in
                subscriptionLifecycle.dueEvent(state, now: date, billing: billing).map { (customerId, state, $0) }
            }
            guard let (customerId, state, event) = due.min(by: { Self.date(of: $0.2) < Self.date(of: $1.2) }) else {
                // None of the window has an event by `date` (dates kept stale): look further, or stop at the end.
                guard rows.count == window else { break }
                window *= 2
                continue
            }
            try database.actFor(customerId: customerId)
            records.append(try run(event, on: state, origin: .outside, database))
        }
        try database.restore(actingFor)
        return records
    }

    /// At most this many subscription events run in one call (a daily subscription over `P100Y` would be 36,500).
    public static let maximumEventsPerRun = 5_000

    /// Due subscriptions read at a time, earliest next event first.
    static let dueWindow = 4

    /// Events run in one database transaction by the timer and before a request: the lock is let go between
    /// batches, so a purchase waits for one batch, never for a whole wave of renewals falling due together.
    public static let eventsPerBatch = 8

    /// Runs what fell due since the last look, if anything may have, at most `batches` batches of
    /// ``eventsPerBatch`` events, each in a database transaction of its own: by the ``StoreTimer`` when the next
    /// event's time comes (every batch, letting the lock go between them), and before each request is answered when
    /// no timer runs (one batch). So a request under a fast clock may be answered before every renewal due has been
    /// made; one that reads subscriptions makes its own due first. Returns how many events ran (`nil`: the database
    /// failed).
    @discardableResult
    public func runDueSubscriptionEvents(batches: Int = .max) -> Int? {
        var total = 0
        for _ in 0..<batches {
            let now = nowMilliseconds
            guard runtime.mayBeDue(now: now) else { break }
            let result = try? withDatabase { database in
                let records = try runDueEvents(until: now, limit: Self.eventsPerBatch, database)
                return (records.count, try database.nextSubscriptionEventDate())
            }
            guard let (count, next) = result else { return total > 0 ? total : nil }
            runtime.noteNextEvent(next)
            if count > 0 { notifications.due.ring() }
            total += count
            if count < Self.eventsPerBatch { break }
        }
        return total
    }

    /// Applies `event` to `state` and records the step.
    @discardableResult
    func run(
        _ event: SubscriptionEvent, on state: SubscriptionState, origin: StoredTransaction.Origin,
        _ database: TransactionStore
    ) throws -> TestSubscriptionEventRecord {
        let step = try lifecycleStep { () throws(SubscriptionLifecycleError) in
            try subscriptionLifecycle.apply(event, to: state)
        }
        return try committedRecord(step, date: Self.date(of: event), origin: origin, database)
    }

    /// Commits `step` (``commit(_:date:origin:settling:_:)``) and says what happened: the notification only when a
    /// transaction was announced.
    func committedRecord(
        _ step: SubscriptionStep, date: Int64, origin: StoredTransaction.Origin, _ database: TransactionStore
    ) throws -> TestSubscriptionEventRecord {
        let (saved, transaction) = try commit(step, date: date, origin: origin, database)
        return TestSubscriptionEventRecord(
            date: date, productId: saved.productId, originalTransactionId: saved.originalTransactionId,
            notificationType: transaction == nil ? nil : step.notice?.type,
            subtype: transaction == nil ? nil : step.notice?.subtype, transactionId: transaction?.id)
    }

    /// Records a step: its changes to old transactions, its new transaction (numbered now), the state, and its
    /// notification (dated `date`). Returns the saved state and its latest transaction (`nil` when a test control
    /// deleted it: then nothing is announced).
    func commit(
        _ step: SubscriptionStep, date: Int64, origin: StoredTransaction.Origin,
        settling pending: PendingSettlement? = nil, _ database: TransactionStore
    ) throws -> (SubscriptionState, StoredTransaction?) {
        var state = step.state
        for amendment in step.amendments {
            _ = try database.amend(amendment, date: date)
        }
        var latest: StoredTransaction?
        if let draft = step.newTransaction {
            let new = newTransaction(draft, state, origin: origin)
            let stored =
                try pending.map { try settle($0, as: new, database) }
                ?? database.insert(new, ids: configuration.transactionIDs)
            if state.originalTransactionId.isEmpty {
                state.originalTransactionId = stored.id
                state.originalPurchaseDate = stored.purchaseDate
            }
            state.latestTransactionId = stored.id
            latest = stored
        }
        try database.saveSubscription(
            state,
            nextEventAt: subscriptionLifecycle.nextEventDate(state, billing: try billingSettings.inForce(database)))
        runtime.noteNextEvent(try database.nextSubscriptionEventDate())
        guard let transaction = try latest ?? database.transaction(id: state.latestTransactionId) else {
            return (state, nil)
        }
        if let notice = step.notice {
            try notifications.enqueueSubscriptionNotification(
                notice, transaction: transaction, state: state, date: date, database)
        }
        return (state, transaction)
    }

    private func newTransaction(
        _ draft: SubscriptionTransactionDraft, _ state: SubscriptionState, origin: StoredTransaction.Origin
    ) -> NewTransaction {
        var new = NewTransaction(
            productId: draft.productId, productType: .autoRenewableSubscription, quantity: 1, price: draft.price,
            currency: state.currency, storefront: state.storefront, storefrontId: state.storefrontId,
            purchaseDate: draft.purchaseDate, appAccountToken: state.appAccountToken, status: .purchased,
            origin: origin)
        let continues = !state.originalTransactionId.isEmpty
        if state.isFamilyShared == true { new.inAppOwnershipType = .familyShared }
        new.subscription = NewSubscriptionTransaction(
            fields: TransactionSubscriptionFields(
                expiresDate: draft.expiresDate, subscriptionGroupIdentifier: state.groupId,
                offerType: draft.offer?.offerType, offerIdentifier: draft.offer?.offerIdentifier,
                offerDiscountType: draft.offer?.offerDiscountType, offerPeriod: draft.offer?.offerPeriod),
            originalTransactionId: continues ? state.originalTransactionId : nil,
            originalPurchaseDate: continues ? state.originalPurchaseDate : nil,
            transactionReason: draft.transactionReason)
        return new
    }

    static func date(of event: SubscriptionEvent) -> Int64 {
        switch event {
        case .renew(let date), .expire(let date, _), .setAutoRenew(_, let date), .changeProduct(_, let date),
            .refund(_, let date):
            date
        case .billing(let billing): billing.date
        }
    }

    // MARK: Refunds

    /// A refunded subscription transaction: the lifecycle learns of it (the period in force refunded: revoked) and
    /// REFUND goes out with the renewal info and status.
    func subscriptionRefunded(_ transaction: StoredTransaction, _ database: TransactionStore) throws {
        guard let group = transaction.subscription?.subscriptionGroupIdentifier,
            let state = try database.subscriptionState(groupId: group)
        else {
            try notifications.enqueueNotification(.refund, transaction: transaction, database)
            return
        }
        let date = transaction.revocationDate ?? nowMilliseconds
        let step = try lifecycleStep { () throws(SubscriptionLifecycleError) in
            try subscriptionLifecycle.apply(.refund(transactionId: transaction.id, at: date), to: state)
        }
        try save(step, about: transaction, date: date, database)
        try storeDisablesAutoRenew(of: transaction, before: state, after: step.state, date: date, database)
    }

    /// After a refund request or a refund of one of its transactions, the App Store turns the subscription's
    /// auto-renew off: DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_DISABLED with renewal info `autoRenewStatus` 0, about
    /// its latest transaction (nothing when auto-renew was off already).
    func storeDisablesAutoRenew(
        of transaction: StoredTransaction, before: SubscriptionState, after: SubscriptionState, date: Int64,
        _ database: TransactionStore
    ) throws {
        guard before.originalTransactionId == transaction.originalTransactionId,
            let step = subscriptionLifecycle.autoRenewDisabledByTheStore(before: before, after: after)
        else { return }
        _ = try commit(step, date: date, origin: .outside, database)
    }

    /// A refund request of a subscription's transaction: the App Store turns auto-renew off
    /// (``storeDisablesAutoRenew(of:before:after:date:_:)``).
    func subscriptionRefundRequested(_ transaction: StoredTransaction, _ database: TransactionStore) throws {
        guard let group = transaction.subscription?.subscriptionGroupIdentifier,
            let state = try database.subscriptionState(groupId: group)
        else { return }
        try storeDisablesAutoRenew(of: transaction, before: state, after: state, date: nowMilliseconds, database)
    }

    /// Saves a step that makes no transaction of its own (a refund, its reversal), with its next event as
    /// ``commit(_:date:origin:settling:_:)`` schedules one, and sends its notice about `transaction`.
    func save(_ step: SubscriptionStep, about transaction: StoredTransaction, date: Int64, _ database: TransactionStore)
        throws
    {
        try database.saveSubscription(
            step.state,
            nextEventAt: subscriptionLifecycle.nextEventDate(step.state, billing: try billingSettings.inForce(database))
        )
        runtime.noteNextEvent(try database.nextSubscriptionEventDate())
        if let notice = step.notice {
            try notifications.enqueueSubscriptionNotification(
                notice, transaction: transaction, state: step.state, date: date, database)
        }
    }

    // MARK: Family Sharing

    /// The customer's subscription in a group, for a purchase of their own: a lapsed family-shared one is
    /// forgotten (their own purchase starts a subscription of their own, INITIAL_BUY); one in force is refused,
    /// as the store keeps one subscription per group.
    func ownSubscription(groupId: String, _ database: TransactionStore) throws -> SubscriptionState? {
        guard let state = try database.subscriptionState(groupId: groupId) else { return nil }
        guard state.isFamilyShared == true else { return state }
        guard state.status == .expired || state.status == .revoked else {
            throw MockStoreError.conflict(.sharedGroup)
        }
        try database.deleteSubscription(originalTransactionId: state.originalTransactionId)
        return nil
    }

    // MARK: Billing

    /// The lifecycle's billing answer, its refusals as the store's errors.
    func billingStep(_ event: BillingEvent, _ state: SubscriptionState) throws(MockStoreError) -> SubscriptionStep {
        do throws(BillingRefusal) {
            return try subscriptionLifecycle.applyBilling(event, to: state)
        } catch {
            throw StoreSubscriptions.storeError(error, state)
        }
    }

    static func storeError(_ refusal: BillingRefusal, _ state: SubscriptionState) -> MockStoreError {
        switch refusal {
        case .lifecycle(.unknownProduct(let id)): .invalidProductId(id)
        case .lifecycle(.otherGroup(let id)): .conflict(.otherGroup(productId: id))
        case .lifecycle: .conflict(.notInForce)
        case .conflict(let why): .conflict(.billing(originalTransactionId: state.originalTransactionId, why: why))
        case .extensionIneligible(let why): .serverAPI(.extensionIneligible(why))
        case .extensionLimit: .serverAPI(.extensionLimit)
        }
    }

    /// A reversed refund of a subscription transaction: the lifecycle learns of it (the period in force: access
    /// again, while it runs) and REFUND_REVERSED goes out with the renewal info and status.
    func subscriptionRefundReversed(_ transaction: StoredTransaction, _ database: TransactionStore) throws {
        guard let group = transaction.subscription?.subscriptionGroupIdentifier,
            let state = try database.subscriptionState(groupId: group)
        else {
            try notifications.enqueueNotification(.refundReversed, transaction: transaction, database)
            return
        }
        let date = nowMilliseconds
        let step = try billingStep(.reverseRefund(transactionId: transaction.id, at: date), state)
        try save(step, about: transaction, date: date, database)
    }
}
