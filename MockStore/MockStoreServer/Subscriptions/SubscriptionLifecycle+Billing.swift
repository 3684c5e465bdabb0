import StoreKitCatalogue
import StoreWire

/// The events of billing, price increases, renewal-date extensions and refund reversals.
public enum BillingEvent: Equatable, Sendable {
    /// The renewal due at `at` cannot be billed: billing retry, with a grace period if `gracePeriod`.
    case failRenewal(at: Int64, gracePeriod: Bool)
    /// The grace period ended without a successful charge: billing retry goes on, without access.
    case gracePeriodExpired(at: Int64)
    /// A charge succeeds during billing retry or the grace period: DID_RENEW BILLING_RECOVERY.
    case recover(at: Int64)
    /// Billing retry gave up (Apple: after 60 days): EXPIRED BILLING_RETRY.
    case retryPeriodEnded(at: Int64)
    /// The developer raised the price of the next renewals to `price` (milliunits); `needsConsent`: the customer
    /// must agree first (PRICE_INCREASE PENDING), else it is accepted at once (ACCEPTED).
    case requestPriceIncrease(price: Int64, needsConsent: Bool, at: Int64)
    /// The customer agreed to the price increase (PRICE_INCREASE ACCEPTED).
    case consentToPriceIncrease(at: Int64)
    /// The customer refused the price increase: auto-renew is turned off, and the subscription expires at the
    /// end of the period (EXPIRED PRICE_INCREASE).
    case declinePriceIncrease(at: Int64)
    /// The developer moved the renewal date `days` days later (Extend a Subscription Renewal Date), under the
    /// caller's `requestIdentifier`.
    case extend(days: Int, requestIdentifier: String?, at: Int64)
    /// A refund of `transactionId` was reversed: REFUND_REVERSED; access comes back if it was the period in force.
    case reverseRefund(transactionId: String, at: Int64)
}

extension BillingEvent {
    /// When the event happens.
    public var date: Int64 {
        switch self {
        case .failRenewal(let date, _), .gracePeriodExpired(let date), .recover(let date), .retryPeriodEnded(let date),
            .requestPriceIncrease(_, _, let date), .consentToPriceIncrease(let date), .declinePriceIncrease(let date),
            .extend(_, _, let date), .reverseRefund(_, let date):
            date
        }
    }
}

/// Why a billing event is refused.
public enum BillingRefusal: Error, Equatable, Sendable {
    /// The lifecycle refused it (unknown product, not active, …).
    case lifecycle(SubscriptionLifecycleError)
    /// The event does not fit the subscription's state.
    case conflict(BillingConflict)
    /// Extend a Subscription Renewal Date: the subscription's state does not allow it (4030004).
    case extensionIneligible(ExtensionIneligibility)
    /// Extend a Subscription Renewal Date: the extensions would exceed 250 days in all, as many as Apple allows
    /// (4030005).
    case extensionLimit
}

/// Why a billing event does not fit the subscription's state (the words are MockStoreError's).
public enum BillingConflict: Equatable, Sendable {
    case notInGracePeriod, notInBillingRetry, noPriceIncreaseWaiting, notActive, notInRetryOrGracePeriod, notInForce
    case priceNotAboveZero
}

/// Why a subscription's state does not allow a renewal-date extension (the words are MockStoreError's).
public enum ExtensionIneligibility: Equatable, Sendable {
    /// Expired, revoked or in billing retry.
    case notActive
    case inFreeOfferPeriod
    case extendedTwiceInAYear
}

/// One renewal-date extension a subscription got.
public struct RenewalExtensionRecord: Equatable, Sendable, Codable {
    public var date: Int64
    public var days: Int
    /// The caller's `requestIdentifier`: the same request again extends nothing more.
    public var requestIdentifier: String?

    public init(date: Int64, days: Int, requestIdentifier: String? = nil) {
        self.date = date
        self.days = days
        self.requestIdentifier = requestIdentifier
    }
}

extension SubscriptionLifecycle {
    /// A day, in milliseconds.
    static let day: Int64 = 86_400_000
    /// How long Apple tries to bill a subscription in billing retry before it expires it.
    public static let billingRetryDays = 60

    /// The grace period's length for a subscription of `period`: 6 days for weekly subscriptions, 16 for the
    /// others (App Store Connect's defaults).
    public static func gracePeriodDays(for period: SubscriptionPeriod) -> Int {
        period.unit == .week || (period.unit == .day && period.value < 7) ? 6 : 16
    }

    /// The event the clock brings about by `now`, billing and price increases included, else
    /// ``dueEvent(_:now:)``'s renewal or expiry.
    public func dueEvent(_ state: SubscriptionState, now: Int64, billing: BillingSettings) -> SubscriptionEvent? {
        switch state.status {
        case .active where state.expiresDate <= now:
            if hasReachedRenewalLimit(state) { break }  // the sandbox's last renewal: it expires
            if state.priceIncreaseStatus == .customerHasNotResponded {
                return .expire(at: state.expiresDate, intent: .customerDidNotConsentToPriceIncrease)
            }
            guard state.autoRenewEnabled else { break }
            if billing.productsNotForSale.contains(state.autoRenewProductId) {
                return .expire(at: state.expiresDate, intent: .productNotAvailable)
            }
            if billing.billingRetryOnRenewal {
                return .billing(.failRenewal(at: state.expiresDate, gracePeriod: billing.gracePeriodEnabled))
            }
        case .billingGracePeriod:
            if let end = state.gracePeriodExpiresDate, end <= now { return .billing(.gracePeriodExpired(at: end)) }
        case .billingRetry:
            let end = retryEnd(state)
            if end <= now { return .billing(.retryPeriodEnded(at: end)) }
        default: break
        }
        return dueEvent(state, now: now)
    }

    /// When the clock next changes this subscription, billing included (`nil`: never by itself).
    public func nextEventDate(_ state: SubscriptionState, billing: BillingSettings) -> Int64? {
        switch state.status {
        case .billingGracePeriod: state.gracePeriodExpiresDate ?? retryEnd(state)
        case .billingRetry: retryEnd(state)
        default: nextEventDate(state)
        }
    }

    /// When billing retry of `state` gives up.
    func retryEnd(_ state: SubscriptionState) -> Int64 {
        state.expiresDate + timing.billingRetryLength
    }

    /// Applies a billing event to `state`.
    public func applyBilling(_ event: BillingEvent, to state: SubscriptionState) throws(BillingRefusal)
        -> SubscriptionStep
    {
        switch event {
        case .failRenewal(let date, let grace): return try failRenewal(state, at: date, gracePeriod: grace)
        case .gracePeriodExpired:
            guard state.status == .billingGracePeriod else { throw .conflict(.notInGracePeriod) }
            var next = state
            next.status = .billingRetry
            next.expirationIntent = .billingError
            return SubscriptionStep(state: next, notice: SubscriptionNotice(.gracePeriodExpired))
        case .recover(let date): return try recover(state, at: date)
        case .retryPeriodEnded(let date):
            guard state.status == .billingRetry || state.status == .billingGracePeriod else {
                throw .conflict(.notInBillingRetry)
            }
            return try lifecycle { () throws(SubscriptionLifecycleError) in
                var step = try apply(.expire(at: date, intent: .billingError), to: state)
                step.state.isInBillingRetryPeriod = false
                return step
            }
        case .requestPriceIncrease(let price, let needsConsent, _):
            return try requestPriceIncrease(state, price: price, needsConsent: needsConsent)
        case .consentToPriceIncrease:
            guard state.priceIncreaseStatus == .customerHasNotResponded, state.increasedPrice != nil,
                state.status != .expired,
                state.status != .revoked
            else { throw .conflict(.noPriceIncreaseWaiting) }
            var next = state
            next.priceIncreaseStatus = .customerConsentedOrWasNotifiedWithoutNeedingConsent
            next.autoRenewEnabled = true
            return SubscriptionStep(state: next, notice: SubscriptionNotice(.priceIncrease, .accepted))
        case .declinePriceIncrease(let date):
            guard state.priceIncreaseStatus == .customerHasNotResponded, state.increasedPrice != nil,
                state.status != .expired,
                state.status != .revoked
            else { throw .conflict(.noPriceIncreaseWaiting) }
            // The customer turns renewal off rather than pay more; the end of the period expires it.
            return try lifecycle { () throws(SubscriptionLifecycleError) in
                var step = try apply(.setAutoRenew(false, at: date), to: state)
                if step.notice == nil {
                    step.notice = SubscriptionNotice(.didChangeRenewalStatus, .autoRenewDisabled)
                }
                return step
            }
        case .extend(let days, let request, let date):
            return try extend(state, days: days, requestIdentifier: request, at: date)
        case .reverseRefund(let transactionId, let date):
            var next = state
            if transactionId == state.latestTransactionId, state.status == .revoked {
                let running = state.expiresDate > date
                next.status = running ? .active : .expired
                next.revocationDate = nil
                next.autoRenewEnabled = running
                next.expirationIntent = running ? nil : state.expirationIntent ?? .customerCancelled
            }
            return SubscriptionStep(state: next, notice: SubscriptionNotice(.refundReversed))
        }
    }

    /// A billing event the clock brought about, its refusals as the lifecycle's.
    func billingStep(_ event: BillingEvent, _ state: SubscriptionState) throws(SubscriptionLifecycleError)
        -> SubscriptionStep
    {
        do {
            return try applyBilling(event, to: state)
        } catch .lifecycle(let error) {
            throw error
        } catch {
            throw .notActive
        }
    }

    /// What one period of `product` costs for `state`: a price increase's new price once consented.
    static func price(of product: SubscriptionProduct, _ state: SubscriptionState) -> Int64 {
        guard let increased = state.increasedPrice, state.priceIncreaseProductId == product.id,
            state.priceIncreaseStatus != .customerHasNotResponded
        else { return product.price }
        return increased
    }

    private func lifecycle(_ body: () throws(SubscriptionLifecycleError) -> SubscriptionStep) throws(BillingRefusal)
        -> SubscriptionStep
    {
        do {
            return try body()
        } catch {
            throw .lifecycle(error)
        }
    }

    private func failRenewal(_ state: SubscriptionState, at date: Int64, gracePeriod: Bool) throws(BillingRefusal)
        -> SubscriptionStep
    {
        guard state.status == .active else { throw .conflict(.notActive) }
        let period = products[state.autoRenewProductId]?.period ?? SubscriptionPeriod(value: 1, unit: .month)
        var next = state
        next.isInBillingRetryPeriod = true
        if gracePeriod {
            next.status = .billingGracePeriod
            next.gracePeriodExpiresDate = date + timing.gracePeriodLength(for: period)
            next.expirationIntent = nil
        } else {
            next.status = .billingRetry
            next.gracePeriodExpiresDate = nil
            next.expirationIntent = .billingError
        }
        return SubscriptionStep(
            state: next, notice: SubscriptionNotice(.didFailToRenew, gracePeriod ? .gracePeriod : nil))
    }

    /// A charge that succeeds in billing retry: in the grace period the renewal date stays (no day of service is
    /// lost); after it, the new period starts now.
    private func recover(_ state: SubscriptionState, at date: Int64) throws(BillingRefusal) -> SubscriptionStep {
        guard state.status == .billingRetry || state.status == .billingGracePeriod else {
            throw .conflict(.notInRetryOrGracePeriod)
        }
        let start = state.status == .billingGracePeriod ? state.expiresDate : date
        return try lifecycle { () throws(SubscriptionLifecycleError) in
            var step = try apply(.renew(at: start), to: state)
            step.state.isInBillingRetryPeriod = false
            step.state.gracePeriodExpiresDate = nil
            step.state.expirationIntent = nil
            step.notice = SubscriptionNotice(.didRenew, .billingRecovery)
            return step
        }
    }

    private func requestPriceIncrease(_ state: SubscriptionState, price: Int64, needsConsent: Bool)
        throws(BillingRefusal) -> SubscriptionStep
    {
        guard state.status == .active || state.status == .billingGracePeriod || state.status == .billingRetry else {
            throw .conflict(.notInForce)
        }
        guard price > 0 else { throw .conflict(.priceNotAboveZero) }
        var next = state
        next.increasedPrice = price
        next.priceIncreaseProductId = state.autoRenewProductId
        next.priceIncreaseStatus =
            needsConsent ? .customerHasNotResponded : .customerConsentedOrWasNotifiedWithoutNeedingConsent
        if next.nextOffer == nil { next.renewalPrice = price }
        return SubscriptionStep(
            state: next, notice: SubscriptionNotice(.priceIncrease, needsConsent ? .pending : .accepted))
    }

    /// Apple's rules: an active, paid period (not a free offer, not billing retry, not expired); at most two
    /// extensions in 365 days and 250 days in all.
    private func extend(_ state: SubscriptionState, days: Int, requestIdentifier: String?, at date: Int64)
        throws(BillingRefusal)
        -> SubscriptionStep
    {
        guard state.status == .active, state.expiresDate > date else {
            throw .extensionIneligible(.notActive)
        }
        guard state.currentOffer?.offerDiscountType != .freeTrial else {
            throw .extensionIneligible(.inFreeOfferPeriod)
        }
        let earlier = state.renewalExtensions ?? []
        let windowStart = date - Int64(RenewalExtensionRules.windowDays) * Self.day
        guard earlier.filter({ $0.date > windowStart }).count < RenewalExtensionRules.maxExtensionsPerWindow else {
            // Apple lists "two renewal date extensions within the past 365 days" under
            // SubscriptionExtensionIneligibleError (4030004).
            throw .extensionIneligible(.extendedTwiceInAYear)
        }
        guard earlier.reduce(0, { $0 + $1.days }) + days <= RenewalExtensionRules.maxTotalDays else {
            throw .extensionLimit
        }
        var next = state
        next.expiresDate = state.expiresDate + Int64(days) * Self.day
        next.renewalExtensions =
            earlier + [RenewalExtensionRecord(date: date, days: days, requestIdentifier: requestIdentifier)]
        return SubscriptionStep(
            state: next,
            amendments: [TransactionAmendment(transactionId: state.latestTransactionId, expiresDate: next.expiresDate)],
            notice: SubscriptionNotice(.renewalExtended))
    }
}
