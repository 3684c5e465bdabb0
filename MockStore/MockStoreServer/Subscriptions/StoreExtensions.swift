import Foundation
import MockStoreHTTP
import MockStoreSQLite
import StoreKitCatalogue
import StoreWire

/// Renewal-date extensions (App Store Server API): Extend a Subscription Renewal Date, Extend Subscription Renewal
/// Dates for All Active Subscribers and Get Status of Subscription Renewal Date Extensions. Apple runs a mass
/// extension later (its status incomplete until then); this store runs it ``massExtensionDelay`` of virtual time
/// after it is taken (`StoreExtensions+Mass.swift`).
public final class StoreExtensions: SubscriptionStorePart {
    let configuration: MockStore.Configuration
    let database: GroupCommit<TransactionStore>
    let runtime: SubscriptionRuntime
    let subscriptions: StoreSubscriptions
    let notifications: StoreNotifications

    init(
        configuration: MockStore.Configuration, database: GroupCommit<TransactionStore>, runtime: SubscriptionRuntime,
        subscriptions: StoreSubscriptions, notifications: StoreNotifications
    ) {
        self.configuration = configuration
        self.database = database
        self.runtime = runtime
        self.subscriptions = subscriptions
        self.notifications = notifications
    }

    /// Extend a Subscription Renewal Date: the subscription whose original transaction id is `id` renews
    /// `extendByDays` later (RENEWAL_EXTENDED). The same `requestIdentifier` again extends nothing more.
    ///
    /// - Throws: ``MockStoreError``: 400 with 4000008 (id not numeric), 4000000 / 4000009 / 4000010 / 4000011 (the
    ///   body); 404/4040005 (no subscription has that original transaction id); 403 with 4030004 (not eligible:
    ///   expired, revoked, in billing retry, in a free offer period), 4030005 (two extensions in 365 days, or 250
    ///   days in all), 4030007 (through Family Sharing).
    public func extendRenewalDate(originalTransactionId id: String, body: [UInt8]) throws(MockStoreError)
        -> ExtendRenewalDateResponseBody
    {
        guard Self.isTransactionId(id) else {
            throw .serverAPI(.invalidOriginalTransactionId(id))
        }
        let request = try Self.extensionRequest(body) { json throws(RenewalExtensionRequestError) in
            try ExtendRenewalDateRequestBody.validated(json)
        }
        let now = nowMilliseconds
        let answer = try withDatabase { database in
            _ = try subscriptions.runDueEvents(until: now, database)
            let found = try database.transaction(id: id)
            // The Server API answers for the customer of the transaction it is given.
            try found.map(database.adopt)
            guard let transaction = found, transaction.status == .purchased,
                let group = transaction.subscription?.subscriptionGroupIdentifier,
                let state = try database.subscriptionState(groupId: group), state.originalTransactionId == id
            else {
                throw MockStoreError.serverAPI(.originalTransactionIdNotFound)
            }
            guard transaction.inAppOwnershipType != .familyShared else {
                throw MockStoreError.serverAPI(.familySharedExtensionIneligible)
            }
            if (state.renewalExtensions ?? []).contains(where: { $0.requestIdentifier == request.requestIdentifier }) {
                return try extensionAnswer(state, database)
            }
            let step = try subscriptions.billingStep(
                .extend(days: request.extendByDays, requestIdentifier: request.requestIdentifier, at: now), state)
            let (saved, _) = try subscriptions.commit(step, date: now, origin: .outside, database)
            return try extensionAnswer(saved, database)
        }
        notifications.due.ring()
        return answer
    }

    private func extensionAnswer(_ state: SubscriptionState, _ database: TransactionStore) throws
        -> ExtendRenewalDateResponseBody
    {
        let latest = try database.transaction(id: state.latestTransactionId)
        return ExtendRenewalDateResponseBody(
            originalTransactionId: state.originalTransactionId,
            webOrderLineItemId: latest?.subscription?.webOrderLineItemId, success: true,
            effectiveDate: state.expiresDate)
    }

    /// Extend Subscription Renewal Dates for All Active Subscribers: taken now (its status `complete: false`),
    /// run later as Apple's are (``massExtensionDelay`` on the virtual clock): then every subscription in force of
    /// `productId` (in `storefrontCountryCodes`, when given) is extended (RENEWAL_EXTENDED) or, if it is not
    /// eligible, counted as failed (RENEWAL_EXTENSION FAILURE); then the status is complete with its counts and
    /// RENEWAL_EXTENSION SUMMARY goes out. The same `requestIdentifier` for the same product again does nothing
    /// more.
    ///
    /// - Throws: ``MockStoreError`` 400 with 4000000 / 4000009 / 4000010 / 4000011 / 4000023 (not an
    ///   auto-renewable of the catalogue) / 4000027 / 4000028.
    public func extendRenewalDatesForAll(body: [UInt8]) throws(MockStoreError) -> MassExtendRenewalDateResponseBody {
        let request = try Self.extensionRequest(body) { json throws(RenewalExtensionRequestError) in
            try MassExtendRenewalDateRequestBody.validated(json) { Storefront.named($0)?.code == $0.uppercased() }
        }
        guard configuration.catalogue.product(id: request.productId)?.type == .autoRenewable else {
            throw .serverAPI(.notAnExtendableProduct(request.productId))
        }
        let now = nowMilliseconds
        let key = Self.massExtensionKey(productId: request.productId, requestIdentifier: request.requestIdentifier)
        let taken = try withDatabase { database in
            _ = try subscriptions.runDueEvents(until: now, database)
            guard try database.setting(key) == nil else { return false }
            let status = MassExtendRenewalDateStatusResponseBody(
                requestIdentifier: request.requestIdentifier, complete: false, completeDate: nil,
                succeededCount: nil, failedCount: nil)
            try database.setSetting(key, to: String(decoding: try HTTPResponse.encode(status), as: UTF8.self))
            try addPendingMassExtension(request, at: now, database)
            return true
        }
        if taken { notifications.due.ring() }  // the timer waits until it is due
        return MassExtendRenewalDateResponseBody(requestIdentifier: request.requestIdentifier)
    }

    /// Runs a mass extension that fell due: each subscriber extended or failed, the status complete, the summary.
    func complete(_ pending: PendingMassExtension, at now: Int64, _ database: TransactionStore) throws {
        let request = pending.request
        let codes = request.storefrontCountryCodes.map { Set($0.map { $0.uppercased() }) }
        var succeeded: Int64 = 0
        var failed: Int64 = 0
        // Every customer's subscribers: a mass extension is for all of the app's.
        let actingFor = database.actingFor
        for (customerId, state) in try database.everyCustomersSubscriptionStates()
        where state.productId == request.productId
            && [.active, .billingGracePeriod, .billingRetry].contains(state.status)
            && codes.map({ $0.contains(state.storefront) }) ?? true
        {
            try database.actFor(customerId: customerId)
            if try extendOne(state, request, now, database) { succeeded += 1 } else { failed += 1 }
        }
        try database.restore(actingFor)
        let status = MassExtendRenewalDateStatusResponseBody(
            requestIdentifier: request.requestIdentifier, complete: true, completeDate: now,
            succeededCount: succeeded, failedCount: failed)
        let key = Self.massExtensionKey(productId: request.productId, requestIdentifier: request.requestIdentifier)
        try database.setSetting(key, to: String(decoding: try HTTPResponse.encode(status), as: UTF8.self))
        try enqueueSummary(
            RenewalExtensionSummary(
                requestIdentifier: request.requestIdentifier, environment: configuration.environment,
                appAppleId: configuration.appAppleIdInAnswers, bundleId: configuration.bundleId,
                productId: request.productId, storefrontCountryCodes: request.storefrontCountryCodes,
                failedCount: failed, succeededCount: succeeded), date: now, database)
    }

    /// One subscriber of a mass extension: extended (RENEWAL_EXTENDED), or not eligible (RENEWAL_EXTENSION
    /// FAILURE). Returns whether it was extended.
    private func extendOne(
        _ state: SubscriptionState, _ request: MassExtendRenewalDateRequestBody, _ now: Int64,
        _ database: TransactionStore
    ) throws -> Bool {
        let step: SubscriptionStep
        let extended: Bool
        do throws(BillingRefusal) {
            step = try subscriptionLifecycle.applyBilling(
                .extend(days: request.extendByDays, requestIdentifier: request.requestIdentifier, at: now), to: state)
            extended = true
        } catch {
            step = SubscriptionStep(state: state, notice: SubscriptionNotice(.renewalExtension, .failure))
            extended = false
        }
        _ = try subscriptions.commit(step, date: now, origin: .outside, database)
        return extended
    }

    /// Get Status of Subscription Renewal Date Extensions.
    ///
    /// - Throws: ``MockStoreError`` 404/4040009 when no mass extension of `productId` has that identifier.
    public func renewalExtensionStatus(productId: String, requestIdentifier: String) throws(MockStoreError)
        -> MassExtendRenewalDateStatusResponseBody
    {
        let key = Self.massExtensionKey(productId: productId, requestIdentifier: requestIdentifier)
        let (ran, stored) = try withDatabase { database in
            (try completeDueMassExtensions(database), try database.setting(key))
        }
        if ran > 0 { notifications.due.ring() }
        guard let stored,
            let status = try? JSONDecoder().decode(
                MassExtendRenewalDateStatusResponseBody.self, from: Data(stored.utf8))
        else {
            throw .serverAPI(.extensionStatusNotFound(requestIdentifier: requestIdentifier, productId: productId))
        }
        return status
    }

    /// Where a mass extension's status is kept: in the settings table, so `reset` forgets it.
    static func massExtensionKey(productId: String, requestIdentifier: String) -> String {
        "renewalExtension\n" + productId + "\n" + requestIdentifier
    }

    /// A request body decoded as JSON and checked by `validate`, its refusals as Apple's 400s.
    static func extensionRequest<Request>(
        _ body: [UInt8], _ validate: (JSONValue) throws(RenewalExtensionRequestError) -> Request
    ) throws(MockStoreError) -> Request {
        let json: JSONValue
        do {
            json = try JSONDecoder().decode(JSONValue.self, from: Data(body))
        } catch {
            throw .invalid(.malformedJSON)
        }
        do {
            return try validate(json)
        } catch {
            throw .serverAPI(.renewalExtension(error))
        }
    }

    /// Records RENEWAL_EXTENSION SUMMARY: Apple's `summary` in place of `data`.
    private func enqueueSummary(_ summary: RenewalExtensionSummary, date: Int64, _ database: TransactionStore) throws {
        let uuid = UUID().uuidString.lowercased()
        var payload = NotificationPayload(
            notificationType: .renewalExtension, subtype: .summary, notificationUUID: uuid, data: nil,
            signedDate: date)
        payload.summary = summary
        let signer = configuration.serverSigner ?? configuration.signer
        try database.insertNotification(
            StoredNotification(
                id: 0, uuid: uuid, type: .renewalExtension, subtype: .summary, transactionId: nil, testToken: nil,
                signedPayload: try signer.sign(json: try HTTPResponse.encode(payload)), createdAt: date,
                status: configuration.notificationURL == nil ? .unsent : .pending,
                nextAttemptAt: configuration.notificationURL == nil ? nil : nowMilliseconds, attempts: []))
    }
}
