import Foundation
import MockStoreHTTP
import StoreKitCatalogue
import StoreWire

/// Auto-renewable subscriptions: buying one, the events the clock and the controls bring about, and how each
/// step is recorded, signed and announced. The rules are ``SubscriptionLifecycle``'s; this applies its steps.
extension MockStore {
    /// The lifecycle over the catalogue.
    public var subscriptionLifecycle: SubscriptionLifecycle { subscriptionRuntime.timedLifecycle }

    /// The virtual clock every date of the store comes from.
    public var virtualClock: VirtualClock { subscriptionRuntime.clock }

    /// Real time (bearer tokens are checked against it, not the virtual clock).
    public var realClock: any StoreClock { subscriptionRuntime.clock.base }

    var nowMilliseconds: Int64 { configuration.clock.now().millisecondsSince1970 }

    // MARK: Buying

    /// Buys `product` (an auto-renewable): SUBSCRIBED (INITIAL_BUY or RESUBSCRIBE) when nothing of its group is in
    /// force; a change of plan when another product of the group is (an upgrade or same-period crossgrade now, a
    /// downgrade at the next renewal); the transaction in force when it is this product already.
    func subscribeOrChange(
        _ product: CatalogueProduct, _ request: PurchaseRequestBody, _ database: TransactionStore,
        origin: StoredTransaction.Origin, settling pending: PendingSettlement? = nil
    ) throws -> StoredTransaction {
        let now = nowMilliseconds
        _ = try runDueEvents(until: now, database)
        guard let subscription = SubscriptionProduct(product) else {
            throw MockStoreError.badRequest("\(product.id) is an auto-renewable subscription without a group.")
        }
        let existing = try ownSubscription(groupId: subscription.groupId, database)
        let step: SubscriptionStep
        if let option = request.offer {
            step = try redeemStep(option, product, existing, request, at: now, signed: origin == .app, database)
        } else if let existing, existing.status == .active || existing.status == .billingGracePeriod {
            step = try lifecycleStep { () throws(SubscriptionLifecycleError) in
                try subscriptionLifecycle.apply(.changeProduct(to: subscription.id, at: now), to: existing)
            }
        } else {
            let context = try purchaseContext(appAccountToken: request.appAccountToken, database)
            step = try lifecycleStep { () throws(SubscriptionLifecycleError) in
                try subscriptionLifecycle.subscribe(subscription.id, previous: existing, at: now, context: context)
            }
        }
        if pending != nil && step.newTransaction == nil {
            throw MockStoreError.conflict(
                "The customer is subscribed in this group already: decline the waiting purchase instead.")
        }
        let (_, transaction) = try commit(step, date: now, origin: origin, settling: pending, database)
        guard let transaction else { throw MockStoreError.transactionNotFound }
        return transaction
    }

    // MARK: The clock

    /// Runs every renewal and expiry due by `date`, earliest first, each at its own date; at most
    /// ``maximumEventsPerRun`` of them.
    func runDueEvents(until date: Int64, _ database: TransactionStore) throws -> [TestSubscriptionEventRecord] {
        var records: [TestSubscriptionEventRecord] = []
        // Only test controls change the billing settings, never an event: read them once for the run.
        let billing = try billingSettings(database)
        // The clock runs for every customer; each event acts for its subscription's, then the call's own again.
        let actingFor = database.actingFor
        while records.count < Self.maximumEventsPerRun {
            // Only the subscriptions whose next event has come (by the due index), not every customer's.
            let due = try database.dueSubscriptionStates(until: date).compactMap { customerId, state in
                subscriptionLifecycle.dueEvent(state, now: date, billing: billing).map { (customerId, state, $0) }
            }
            guard let (customerId, state, event) = due.min(by: { Self.date(of: $0.2) < Self.date(of: $1.2) }) else {
                break
            }
            try database.actFor(customerId: customerId)
            records.append(try run(event, on: state, origin: .outside, database))
        }
        try database.restore(actingFor)
        return records
    }

    /// Works out again when each subscription of every customer next changes (the rate or a billing setting
    /// changed), so the due index (``TransactionStore/dueSubscriptionStates(until:)``) finds each at its time.
    func rescheduleEverySubscription(_ database: TransactionStore) throws {
        let billing = try billingSettings(database)
        // An existing row keeps its customer: the save only changes its state and next date.
        for (_, state) in try database.everyCustomersSubscriptionStates() {
            try database.saveSubscription(
                state, nextEventAt: subscriptionLifecycle.nextEventDate(state, billing: billing))
        }
    }

    /// At most this many subscription events run in one call (a daily subscription over `P100Y` would be 36,500).
    public static let maximumEventsPerRun = 5_000

    /// Runs what fell due since the last look, if anything may have: called before each request is answered,
    /// and by ``SubscriptionScheduler`` when the next event's time comes. Returns how many events ran (`nil`: the
    /// database failed).
    @discardableResult
    public func runDueSubscriptionEvents() -> Int? {
        let now = nowMilliseconds
        guard subscriptionRuntime.mayBeDue(now: now) else { return 0 }
        let result = try? withDatabase { database in
            let records = try runDueEvents(until: now, database)
            return (records.count, try database.nextSubscriptionEventDate())
        }
        guard let (count, next) = result else { return nil }
        subscriptionRuntime.noteNextEvent(next)
        if count > 0 { notificationsDue.signal() }
        return count
    }

    /// The real milliseconds until the next subscription event falls due at the rate in force (0: due now), or
    /// `nil` when none is scheduled or the store has not looked yet (``SubscriptionScheduler``'s wait).
    func realMillisecondsUntilNextSubscriptionEvent() -> Int64? {
        subscriptionRuntime.nextEventDate.map { virtualClock.realMilliseconds(until: $0) }
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
            state, nextEventAt: subscriptionLifecycle.nextEventDate(state, billing: try billingSettings(database)))
        subscriptionRuntime.noteNextEvent(try database.nextSubscriptionEventDate())
        guard let transaction = try latest ?? database.transaction(id: state.latestTransactionId) else {
            return (state, nil)
        }
        if let notice = step.notice {
            try enqueueSubscriptionNotification(notice, transaction: transaction, state: state, date: date, database)
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

    /// The lifecycle's answer, its refusals as the store's errors.
    func lifecycleStep(_ body: () throws(SubscriptionLifecycleError) -> SubscriptionStep) throws(MockStoreError)
        -> SubscriptionStep
    {
        do {
            return try body()
        } catch .unknownProduct(let id) {
            throw .invalidProductId(id)
        } catch .otherGroup(let id) {
            throw .conflict("\(id) is in another subscription group.")
        } catch {
            throw .conflict("The subscription is not in force (expired or revoked).")
        }
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
            try enqueueNotification(.refund, transaction: transaction, database)
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
            nextEventAt: subscriptionLifecycle.nextEventDate(step.state, billing: try billingSettings(database)))
        subscriptionRuntime.noteNextEvent(try database.nextSubscriptionEventDate())
        if let notice = step.notice {
            try enqueueSubscriptionNotification(
                notice, transaction: transaction, state: step.state, date: date, database)
        }
    }

    // MARK: Notifications and renewal info

    /// A notification about `transaction`: for a subscription's, with its renewal info and status (as Apple sends
    /// CONSUMPTION_REQUEST and REFUND_DECLINED for subscriptions); else as for a one-time purchase.
    func announce(
        _ type: NotificationType, transaction: StoredTransaction, reason: ConsumptionRequestReason? = nil,
        _ database: TransactionStore
    ) throws {
        guard let group = transaction.subscription?.subscriptionGroupIdentifier,
            let state = try database.subscriptionState(groupId: group)
        else {
            try enqueueNotification(type, transaction: transaction, reason: reason, database)
            return
        }
        try enqueueSubscriptionNotification(
            SubscriptionNotice(type), transaction: transaction, state: state, date: nowMilliseconds,
            consumptionRequestReason: reason, database)
    }

    /// Records a subscription notification: the transaction, the renewal info and the status in its data.
    func enqueueSubscriptionNotification(
        _ notice: SubscriptionNotice, transaction: StoredTransaction, state: SubscriptionState, date: Int64,
        consumptionRequestReason: ConsumptionRequestReason? = nil, _ database: TransactionStore
    ) throws {
        let now = nowMilliseconds
        let uuid = UUID().uuidString.lowercased()
        var data = NotificationData(
            environment: configuration.environment, appAppleId: configuration.appAppleIdInAnswers,
            bundleId: configuration.bundleId, bundleVersion: configuration.bundleVersion,
            signedTransactionInfo: try serverSign(transaction), consumptionRequestReason: consumptionRequestReason)
        data.signedRenewalInfo = try signRenewalInfo(state, signedDate: date)
        data.status = state.status
        let payload = NotificationPayload(
            notificationType: notice.type, subtype: notice.subtype, notificationUUID: uuid, data: data, signedDate: date
        )
        let signer = configuration.serverSigner ?? configuration.signer
        try database.insertNotification(
            StoredNotification(
                id: 0, uuid: uuid, type: notice.type, subtype: notice.subtype, transactionId: transaction.id,
                testToken: nil, signedPayload: try signer.sign(json: try HTTPResponse.encode(payload)),
                createdAt: date, status: configuration.notificationURL == nil ? .unsent : .pending,
                nextAttemptAt: configuration.notificationURL == nil ? nil : now, attempts: []))
    }

    /// Apple's `JWSRenewalInfoDecodedPayload` for `state`.
    public func renewalInfoPayload(_ state: SubscriptionState, signedDate: Int64) -> RenewalInfoPayload {
        let offer = state.status == .expired || state.status == .revoked ? nil : state.nextOffer
        var payload = RenewalInfoPayload(
            originalTransactionId: state.originalTransactionId, autoRenewProductId: state.autoRenewProductId,
            productId: state.productId, autoRenewStatus: state.autoRenewEnabled ? .on : .off,
            expirationIntent: state.status == .expired || state.status == .billingRetry ? state.expirationIntent : nil,
            isInBillingRetryPeriod: state.isInBillingRetryPeriod, priceIncreaseStatus: state.priceIncreaseStatus,
            gracePeriodExpiresDate: state.gracePeriodExpiresDate, offerType: offer?.offerType,
            offerIdentifier: offer?.offerIdentifier, offerDiscountType: offer?.offerDiscountType,
            offerPeriod: offer?.offerPeriod, signedDate: signedDate, environment: configuration.environment,
            recentSubscriptionStartDate: state.recentSubscriptionStartDate, renewalDate: state.expiresDate,
            currency: state.currency, renewalPrice: state.renewalPrice, appAccountToken: state.appAccountToken,
            appTransactionId: String(customerAppTransactions.current.id))
        payload.eligibleWinBackOfferIds = eligibleWinBackOfferIds(state)
        return payload
    }

    /// The renewal info signed for a server (`device` false) or for the device API.
    func signRenewalInfo(_ state: SubscriptionState, signedDate: Int64? = nil, device: Bool = false) throws -> String {
        let payload = renewalInfoPayload(state, signedDate: signedDate ?? nowMilliseconds)
        let signer = device ? configuration.signer : (configuration.serverSigner ?? configuration.signer)
        return try signer.sign(json: try HTTPResponse.encode(payload))
    }
}
