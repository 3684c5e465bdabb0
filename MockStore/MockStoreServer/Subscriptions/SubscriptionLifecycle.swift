import StoreKitCatalogue
import StoreWire

/// Something that happens to a subscription. Billing, price increases, offers and extensions are new cases.
public enum SubscriptionEvent: Equatable, Sendable {
    /// A new period begins at `at` (the end of the last one, or now when forced).
    case renew(at: Int64)
    /// The subscription ends at `at` with Apple's `expirationIntent`.
    case expire(at: Int64, intent: ExpirationIntent)
    /// The customer turns auto-renew on or off.
    case setAutoRenew(Bool, at: Int64)
    /// The customer picks another product of the group: an upgrade or a crossgrade of the same period takes
    /// effect at once, a downgrade or a crossgrade of another period at the next renewal.
    case changeProduct(to: String, at: Int64)
    /// The App Store refunded `transactionId`; when it is the period in force, the subscription is revoked.
    case refund(transactionId: String, at: Int64)
    /// Billing, price increases, extensions and refund reversals (``SubscriptionLifecycle/applyBilling(_:to:)``).
    case billing(BillingEvent)
}

/// A notification a step makes: Apple's `notificationType` and `subtype`.
public struct SubscriptionNotice: Equatable, Sendable {
    public var type: NotificationType
    public var subtype: NotificationSubtype?

    public init(_ type: NotificationType, _ subtype: NotificationSubtype? = nil) {
        self.type = type
        self.subtype = subtype
    }
}

/// A transaction a step makes; the store numbers it (and puts its id in ``SubscriptionState/latestTransactionId``).
public struct SubscriptionTransactionDraft: Equatable, Sendable {
    public var productId: String
    public var purchaseDate: Int64
    public var expiresDate: Int64
    /// Milliunits.
    public var price: Int64
    public var transactionReason: TransactionReason
    public var offer: AppliedOffer?
}

/// A change a step makes to a transaction already recorded.
public struct TransactionAmendment: Equatable, Sendable {
    public var transactionId: String
    /// Set on the transaction an upgrade replaces.
    public var isUpgraded = false
    /// Revoked at this date (an upgrade's prorated refund of the replaced period).
    public var revocationDate: Int64?
    /// The share refunded, in milli-percent.
    public var revocationPercentage: Int?
    /// A new end of the period (the subscription was made to expire now).
    public var expiresDate: Int64?
}

/// What one event did: the new state, a new transaction if any, changes to old ones, and the notification.
public struct SubscriptionStep: Equatable, Sendable {
    public var state: SubscriptionState
    public var newTransaction: SubscriptionTransactionDraft?
    public var amendments: [TransactionAmendment] = []
    /// `nil`: nothing to tell (the event changed nothing Apple notifies about).
    public var notice: SubscriptionNotice?
}

/// Why the lifecycle refuses an event.
public enum SubscriptionLifecycleError: Error, Equatable, Sendable {
    case unknownProduct(String)
    case otherGroup(String)
    /// Expired or revoked: the event needs a subscription in force.
    case notActive
}

/// The purchase's storefront and token.
public struct SubscriptionPurchaseContext: Equatable, Sendable {
    public var currency: String
    public var storefront: String
    public var storefrontId: String
    public var appAccountToken: String?

    public init(currency: String, storefront: String, storefrontId: String, appAccountToken: String? = nil) {
        self.currency = currency
        self.storefront = storefront
        self.storefrontId = storefrontId
        self.appAccountToken = appAccountToken
    }
}

/// The lifecycle of auto-renewable subscriptions as a pure function: a state and an event in, the next state,
/// transactions and notification out. No clock, no database, no signing: the store applies the steps.
public struct SubscriptionLifecycle: Sendable {
    public var products: [String: SubscriptionProduct]
    /// How long periods last at the time rate in force (calendar periods unless the store sets it).
    public var timing = SubscriptionTiming()
    /// Lapses of paid service shorter than this (milliseconds of the store's clock) keep
    /// `recentSubscriptionStartDate`; a longer one starts a new run. Apple: 60 days in production, 10 minutes in
    /// the sandbox (``productionLapseLimit``, ``sandboxLapseLimit``).
    public var recentStartLapseLimit = Self.sandboxLapseLimit
    /// How many renewals after the purchase a subscription gets before it expires (Apple's sandbox: 12); `nil`:
    /// no limit.
    public var renewalLimit: Int?

    /// Apple's production limit for ``recentStartLapseLimit``: 60 days.
    public static let productionLapseLimit: Int64 = 60 * 86_400_000
    /// Apple's sandbox limit for ``recentStartLapseLimit``: 10 minutes.
    public static let sandboxLapseLimit: Int64 = 10 * 60_000

    public init(products: [SubscriptionProduct]) {
        self.products = Dictionary(products.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every auto-renewable subscription of the catalogue.
    public init(catalogue: StoreKitConfiguration) {
        self.init(products: catalogue.products.compactMap(SubscriptionProduct.init))
    }

    func product(_ id: String) throws(SubscriptionLifecycleError) -> SubscriptionProduct {
        guard let product = products[id] else { throw .unknownProduct(id) }
        return product
    }

    /// A purchase with no subscription in force in the group: SUBSCRIBED INITIAL_BUY, or RESUBSCRIBE after an
    /// earlier one (`previous`, expired or revoked) whose original transaction id it keeps. The introductory
    /// offer applies if the product has one and the customer never had one in the group.
    public func subscribe(
        _ productId: String, previous: SubscriptionState?, at date: Int64, context: SubscriptionPurchaseContext
    ) throws(SubscriptionLifecycleError) -> SubscriptionStep {
        let product = try product(productId)
        if let previous, previous.status == .active || previous.status == .billingGracePeriod {
            throw .notActive
        }
        let usedIntro = previous?.usedIntroductoryOffer ?? false
        let offer = usedIntro ? nil : product.introductoryOffer.map(AppliedOffer.init)
        let expires = end(of: date, product: product, offer: offer)
        let price = offer?.price ?? product.price
        let next = Self.following(offer)
        let state = SubscriptionState(
            originalTransactionId: previous?.originalTransactionId ?? "",
            originalPurchaseDate: previous?.originalPurchaseDate ?? date, groupId: product.groupId,
            productId: product.id, autoRenewProductId: product.id, autoRenewEnabled: true, status: .active,
            latestTransactionId: "", currentPeriodStart: date, expiresDate: expires,
            recentSubscriptionStartDate: previous.map { recentStart(after: $0.lapseStart, of: $0, resumingAt: date) }
                ?? date,
            expirationIntent: nil, renewalPrice: next?.price ?? product.price,
            currency: context.currency, storefront: context.storefront, storefrontId: context.storefrontId,
            appAccountToken: context.appAccountToken ?? previous?.appAccountToken, currentOffer: offer,
            nextOffer: next, usedIntroductoryOffer: usedIntro || offer != nil)
        return SubscriptionStep(
            state: state,
            newTransaction: SubscriptionTransactionDraft(
                productId: product.id, purchaseDate: date, expiresDate: expires, price: price,
                transactionReason: .purchase, offer: offer),
            notice: SubscriptionNotice(.subscribed, previous == nil ? .initialBuy : .resubscribe))
    }

    /// The event the clock brings about by `now`, if any: the end of the period in force renews it (auto-renew
    /// on) or expires it (off: EXPIRED VOLUNTARY; a product no longer sold: PRODUCT_NOT_FOR_SALE).
    public func dueEvent(_ state: SubscriptionState, now: Int64) -> SubscriptionEvent? {
        guard state.status == .active, state.expiresDate <= now else { return nil }
        guard state.autoRenewEnabled, !hasReachedRenewalLimit(state) else {
            return .expire(at: state.expiresDate, intent: .customerCancelled)
        }
        return products[state.autoRenewProductId] == nil
            ? .expire(at: state.expiresDate, intent: .productNotAvailable) : .renew(at: state.expiresDate)
    }

    /// Whether `state` renewed as often as ``renewalLimit`` allows: its period in force is its last.
    public func hasReachedRenewalLimit(_ state: SubscriptionState) -> Bool {
        guard let renewalLimit else { return false }
        return (state.renewalCount ?? 0) >= renewalLimit
    }

    /// When the clock next changes this subscription (`nil`: never by itself).
    public func nextEventDate(_ state: SubscriptionState) -> Int64? {
        state.status == .active ? state.expiresDate : nil
    }

    /// Applies `event` to `state`.
    public func apply(_ event: SubscriptionEvent, to state: SubscriptionState) throws(SubscriptionLifecycleError)
        -> SubscriptionStep
    {
        switch event {
        case .renew(let date): try renew(state, at: date)
        case .expire(let date, let intent): try expire(state, at: date, intent: intent)
        case .setAutoRenew(let on, _): try setAutoRenew(state, on)
        case .changeProduct(let id, let date): try change(state, to: id, at: date)
        case .refund(let id, let date): refund(state, transactionId: id, at: date)
        case .billing(let event): try billingStep(event, state)
        }
    }

    private func renew(_ state: SubscriptionState, at date: Int64) throws(SubscriptionLifecycleError)
        -> SubscriptionStep
    {
        guard state.status == .active || state.status == .billingGracePeriod || state.status == .billingRetry
        else { throw .notActive }
        let product = try product(state.autoRenewProductId)
        var next = state
        let offer = state.nextOffer
        let expires = end(of: date, product: product, offer: offer)
        next.productId = product.id
        next.status = .active
        next.currentPeriodStart = date
        next.expiresDate = expires
        next.currentOffer = offer
        next.nextOffer = Self.following(offer)
        let price = Self.price(of: product, state)
        next.renewalPrice = next.nextOffer?.price ?? price
        next.expirationIntent = nil
        next.renewalCount = (state.renewalCount ?? 0) + 1
        if state.priceIncreaseStatus == .customerConsentedOrWasNotifiedWithoutNeedingConsent,
            state.priceIncreaseProductId == product.id
        {
            next.priceIncreaseStatus = nil  // the consented price is the price now
        }
        if state.expiresDate < date {
            // A renewal after a gap (forced, or a recovery after the grace period): a new run if the gap was long.
            next.recentSubscriptionStartDate = recentStart(after: state.expiresDate, of: state, resumingAt: date)
        }
        return SubscriptionStep(
            state: next,
            newTransaction: SubscriptionTransactionDraft(
                productId: product.id, purchaseDate: date, expiresDate: expires, price: offer?.price ?? price,
                transactionReason: .renewal, offer: offer),
            notice: SubscriptionNotice(.didRenew))
    }

    private func expire(_ state: SubscriptionState, at date: Int64, intent: ExpirationIntent)
        throws(SubscriptionLifecycleError)
        -> SubscriptionStep
    {
        guard state.status != .expired, state.status != .revoked else { throw .notActive }
        var next = state
        var amendments: [TransactionAmendment] = []
        if date < state.expiresDate {
            // Made to expire early (a test control): the period in force ends now.
            next.expiresDate = date
            amendments.append(TransactionAmendment(transactionId: state.latestTransactionId, expiresDate: date))
        }
        next.status = .expired
        next.autoRenewEnabled = false
        next.expirationIntent = intent
        next.nextOffer = nil
        next.renewalPrice = products[state.autoRenewProductId]?.price ?? state.renewalPrice
        next.isInBillingRetryPeriod = intent == .billingError ? false : next.isInBillingRetryPeriod
        return SubscriptionStep(
            state: next, amendments: amendments, notice: SubscriptionNotice(.expired, Self.expiredSubtype(intent)))
    }

    /// EXPIRED's subtype for an `expirationIntent`.
    static func expiredSubtype(_ intent: ExpirationIntent) -> NotificationSubtype {
        switch intent {
        case .billingError: .billingRetry
        case .customerDidNotConsentToPriceIncrease: .priceIncrease
        case .productNotAvailable: .productNotForSale
        default: .voluntary
        }
    }

    private func setAutoRenew(_ state: SubscriptionState, _ on: Bool) throws(SubscriptionLifecycleError)
        -> SubscriptionStep
    {
        guard state.status != .expired, state.status != .revoked else { throw .notActive }
        guard state.autoRenewEnabled != on else { return SubscriptionStep(state: state) }
        var next = state
        next.autoRenewEnabled = on
        return SubscriptionStep(
            state: next,
            notice: SubscriptionNotice(.didChangeRenewalStatus, on ? .autoRenewEnabled : .autoRenewDisabled))
    }

    private func change(_ state: SubscriptionState, to id: String, at date: Int64) throws(SubscriptionLifecycleError)
        -> SubscriptionStep
    {
        guard state.status == .active || state.status == .billingGracePeriod else { throw .notActive }
        let target = try product(id)
        guard target.groupId == state.groupId else { throw .otherGroup(id) }
        let current = try product(state.productId)
        var next = state
        if target.id == current.id {
            guard state.autoRenewProductId != current.id else { return SubscriptionStep(state: state) }
            // Back to the product in force: the downgrade is cancelled (DID_CHANGE_RENEWAL_PREF, no subtype).
            next.autoRenewProductId = current.id
            next.renewalPrice = current.price
            return SubscriptionStep(state: next, notice: SubscriptionNotice(.didChangeRenewalPref))
        }
        let immediate =
            target.level < current.level || (target.level == current.level && target.period == current.period)
        guard immediate else {
            guard state.autoRenewProductId != target.id else { return SubscriptionStep(state: state) }
            next.autoRenewProductId = target.id
            next.nextOffer = nil
            next.renewalPrice = target.price
            return SubscriptionStep(state: next, notice: SubscriptionNotice(.didChangeRenewalPref, .downgrade))
        }
        // An upgrade (or a crossgrade of the same period): a new period of the new product starts now; the one
        // replaced is refunded for the time left in it.
        let length = max(1, state.expiresDate - state.currentPeriodStart)
        let unused = max(0, min(length, state.expiresDate - date))
        let share = Int((Double(unused) / Double(length) * 100_000).rounded())
        let expires = timing.end(of: target.period, from: date)
        next.productId = target.id
        next.autoRenewProductId = target.id
        next.autoRenewEnabled = true
        next.currentPeriodStart = date
        next.expiresDate = expires
        next.currentOffer = nil
        next.nextOffer = nil
        next.renewalPrice = target.price
        return SubscriptionStep(
            state: next,
            newTransaction: SubscriptionTransactionDraft(
                productId: target.id, purchaseDate: date, expiresDate: expires, price: target.price,
                transactionReason: .purchase, offer: nil),
            amendments: [
                TransactionAmendment(
                    transactionId: state.latestTransactionId, isUpgraded: true, revocationDate: date,
                    revocationPercentage: share > 0 ? share : nil)
            ],
            notice: SubscriptionNotice(.didChangeRenewalPref, .upgrade))
    }

    private func refund(_ state: SubscriptionState, transactionId: String, at date: Int64) -> SubscriptionStep {
        var next = state
        if transactionId == state.latestTransactionId {
            next.status = .revoked
            next.revocationDate = date
            next.autoRenewEnabled = false
            next.nextOffer = nil
        }
        return SubscriptionStep(state: next, notice: SubscriptionNotice(.refund))
    }

    /// The App Store turns auto-renew off once the customer asks for a refund and after a refund (Apple's
    /// notificationType documentation: DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_DISABLED), when it was on: `before` is
    /// the subscription before the request or refund, `after` what that left of it. `nil`: it was off already, or
    /// the subscription had lapsed.
    public func autoRenewDisabledByTheStore(before: SubscriptionState, after: SubscriptionState) -> SubscriptionStep? {
        guard before.autoRenewEnabled, before.status != .expired, before.status != .revoked,
            before.isFamilyShared != true
        else { return nil }
        var next = after
        next.autoRenewEnabled = false
        return SubscriptionStep(
            state: next, notice: SubscriptionNotice(.didChangeRenewalStatus, .autoRenewDisabled))
    }

    // MARK: Dates

    /// `recentSubscriptionStartDate` when paid service resumes at `date` after stopping at `lapseStart`: the run
    /// of `previous` goes on through a lapse shorter than ``recentStartLapseLimit``, else a new run starts.
    func recentStart(after lapseStart: Int64, of previous: SubscriptionState, resumingAt date: Int64) -> Int64 {
        date - lapseStart < recentStartLapseLimit ? previous.recentSubscriptionStartDate : date
    }

    /// The end of a period starting at `date`: the offer's period while one applies, else the product's.
    func end(of date: Int64, product: SubscriptionProduct, offer: AppliedOffer?) -> Int64 {
        let period = offer.flatMap { SubscriptionPeriod(iso8601: $0.period) } ?? product.period
        return timing.end(of: period, from: date)
    }

    /// The offer the period after one under `offer` carries: the rest of a pay-as-you-go offer.
    static func following(_ offer: AppliedOffer?) -> AppliedOffer? {
        guard var offer, offer.periodsRemaining > 0 else { return nil }
        offer.periodsRemaining -= 1
        return offer
    }
}
