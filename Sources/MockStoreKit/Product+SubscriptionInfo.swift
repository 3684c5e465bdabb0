import Foundation
internal import StoreWire

extension Product {
    /// StoreKit 2's `Product.SubscriptionInfo`: an auto-renewable subscription's group, period and offers.
    public struct SubscriptionInfo: Equatable, Hashable, Sendable {
        public let introductoryOffer: Product.SubscriptionOffer?
        public let promotionalOffers: [Product.SubscriptionOffer]
        public let winBackOffers: [Product.SubscriptionOffer]
        public let subscriptionGroupID: String
        public let subscriptionPeriod: Product.SubscriptionPeriod
        /// 1 is the highest level of service in the group.
        public let groupLevel: Int
        public let groupDisplayName: String

        init(_ info: StoreSubscriptionInfo) {
            introductoryOffer = info.introductoryOffer.map(Product.SubscriptionOffer.init)
            promotionalOffers = info.promotionalOffers.map(Product.SubscriptionOffer.init)
            winBackOffers = info.winBackOffers.map(Product.SubscriptionOffer.init)
            subscriptionGroupID = info.subscriptionGroupID
            subscriptionPeriod = Product.SubscriptionPeriod(info.subscriptionPeriod)
            groupLevel = info.groupLevel
            groupDisplayName = info.groupDisplayName
        }

        /// Whether the customer may still have this group's introductory offer.
        public var isEligibleForIntroOffer: Bool {
            get async { await Self.isEligibleForIntroOffer(for: subscriptionGroupID) }
        }

        /// Whether the customer may still have the introductory offer of group `groupID` (false when the store
        /// cannot be asked).
        public static func isEligibleForIntroOffer(for groupID: String) async -> Bool {
            guard let session = try? MockStoreKitSession.shared() else { return false }
            return (try? await session.client.isEligibleForIntroOffer(group: groupID)) ?? false
        }

        /// The customer's subscriptions in this group, each with its state, latest transaction and renewal info.
        public var status: [Product.SubscriptionInfo.Status] {
            get async throws { try await Self.status(for: subscriptionGroupID) }
        }

        /// The customer's subscriptions in group `groupID`.
        public static func status(for groupID: String) async throws -> [Product.SubscriptionInfo.Status] {
            let session = try MockStoreKitSession.shared()
            return try await session.client.subscriptionStatuses(group: groupID).compactMap { item in
                guard let transaction = session.transaction(item.signedTransaction),
                    let renewalInfo = session.renewalInfo(item.signedRenewalInfo)
                else { return nil }
                return Status(
                    state: RenewalState(item.state), transaction: transaction, renewalInfo: renewalInfo)
            }
        }
    }

    /// StoreKit 2's `Product.SubscriptionPeriod`.
    public struct SubscriptionPeriod: Equatable, Hashable, Sendable {
        public let unit: Product.SubscriptionPeriod.Unit
        public let value: Int

        init(_ period: StoreSubscriptionPeriod) {
            unit = Unit(period.unit)
            value = period.value
        }

        /// StoreKit 2's `Product.SubscriptionPeriod.Unit`.
        public enum Unit: Equatable, Hashable, Sendable {
            case day
            case week
            case month
            case year

            /// The wire's unit; one this mirror does not know is read as a month.
            init(_ unit: SubscriptionPeriodUnit) {
                switch unit {
                case .day: self = .day
                case .week: self = .week
                case .year: self = .year
                case .month, .unrecognized: self = .month
                }
            }

            /// The unit in words.
            public var localizedDescription: String {
                switch self {
                case .day: return "Day"
                case .week: return "Week"
                case .month: return "Month"
                case .year: return "Year"
                }
            }
        }
    }

    /// StoreKit 2's `Product.SubscriptionOffer`.
    public struct SubscriptionOffer: Equatable, Hashable, Sendable {
        /// Nil for an introductory offer.
        public let id: String?
        public let type: Product.SubscriptionOffer.OfferType
        public let price: Decimal
        public let displayPrice: String
        public let period: Product.SubscriptionPeriod
        public let periodCount: Int
        public let paymentMode: Product.SubscriptionOffer.PaymentMode

        init(_ offer: StoreSubscriptionOffer) {
            id = offer.id
            type = OfferType(rawValue: offer.type.rawValue)
            price = Decimal(string: offer.price, locale: Locale(identifier: "en_US_POSIX")) ?? 0
            displayPrice = offer.displayPrice
            period = Product.SubscriptionPeriod(offer.period)
            periodCount = offer.periodCount
            paymentMode = PaymentMode(rawValue: offer.paymentMode.rawValue)
        }

        /// StoreKit 2's `Product.SubscriptionOffer.OfferType`.
        public struct OfferType: RawRepresentable, Equatable, Hashable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }

            public static let introductory = OfferType(rawValue: "introductory")
            public static let promotional = OfferType(rawValue: "promotional")
            public static let winBack = OfferType(rawValue: "winBack")
        }

        /// StoreKit 2's `Product.SubscriptionOffer.PaymentMode`.
        public struct PaymentMode: RawRepresentable, Equatable, Hashable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }

            public static let freeTrial = PaymentMode(rawValue: "freeTrial")
            public static let payAsYouGo = PaymentMode(rawValue: "payAsYouGo")
            public static let payUpFront = PaymentMode(rawValue: "payUpFront")
        }
    }
}

extension Product.SubscriptionInfo {
    /// StoreKit 2's `Product.SubscriptionInfo.Status`.
    public struct Status: Equatable, Hashable, Sendable {
        public let state: Product.SubscriptionInfo.RenewalState
        public let transaction: VerificationResult<Transaction>
        public let renewalInfo: VerificationResult<Product.SubscriptionInfo.RenewalInfo>

        /// The status of a subscription each time it changes (a renewal, an upgrade, a refund, a resubscription)
        /// while the app runs; it never ends.
        public static var updates: Product.SubscriptionInfo.Status.Statuses { Statuses() }

        /// The statuses of every subscription group the customer ever subscribed in, a group at a time (each
        /// group's as ``Product/SubscriptionInfo/status(for:)`` gives it), then the stream ends. A store out of
        /// reach ends it with nothing.
        public static var all: AsyncStream<(groupID: String, statuses: [Product.SubscriptionInfo.Status])> {
            AsyncStream { continuation in
                // A task, not a detached one: it keeps the session of the code that asked.
                let task = Task {
                    var groups: [String] = []
                    for await result in Transaction.all {
                        let transaction = result.unsafePayloadValue
                        if let group = transaction.subscriptionGroupID, !groups.contains(group) { groups.append(group) }
                    }
                    for group in groups where !Task.isCancelled {
                        guard let statuses = try? await Product.SubscriptionInfo.status(for: group) else { break }
                        if !statuses.isEmpty { continuation.yield((group, statuses)) }
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }

        /// StoreKit 2's `Product.SubscriptionInfo.Status.Statuses`: an asynchronous sequence of statuses.
        public struct Statuses: AsyncSequence, Sendable {
            public typealias Element = Product.SubscriptionInfo.Status

            public func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }

            /// Waits for the next subscription transaction that changes and gives its subscription's status.
            public struct AsyncIterator: AsyncIteratorProtocol {
                var changes = Transaction.Transactions.AsyncIterator(source: .updates, takesLaunch: false)

                /// Takes the store's position now, so every later change is handed over (for tests).
                mutating func takePosition() async -> Bool { await changes.takePosition() }

                public mutating func next() async -> Product.SubscriptionInfo.Status? {
                    while let change = await changes.next() {
                        let transaction = change.unsafePayloadValue
                        guard transaction.productType == .autoRenewable, let group = transaction.subscriptionGroupID,
                            let statuses = try? await Product.SubscriptionInfo.status(for: group)
                        else { continue }
                        if let status = statuses.first(where: {
                            $0.transaction.unsafePayloadValue.originalID == transaction.originalID
                        }) {
                            return status
                        }
                    }
                    return nil
                }
            }
        }
    }

    /// StoreKit 2's `Product.SubscriptionInfo.RenewalState`: a struct of static values, not an enum.
    public struct RenewalState: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        public static let subscribed = RenewalState(rawValue: 1)
        public static let expired = RenewalState(rawValue: 2)
        public static let inBillingRetryPeriod = RenewalState(rawValue: 3)
        public static let inGracePeriod = RenewalState(rawValue: 4)
        public static let revoked = RenewalState(rawValue: 5)

        /// The state in words.
        public var localizedDescription: String {
            switch self {
            case .subscribed: return "Subscribed"
            case .expired: return "Expired"
            case .inBillingRetryPeriod: return "In Billing Retry Period"
            case .inGracePeriod: return "In Grace Period"
            case .revoked: return "Revoked"
            default: return "Unknown (\(rawValue))"
            }
        }

        /// The state the device API sends; one this mirror does not know keeps its number, or 0.
        init(_ state: SubscriptionRenewalState) {
            switch state {
            case .subscribed: self = .subscribed
            case .expired: self = .expired
            case .inBillingRetryPeriod: self = .inBillingRetryPeriod
            case .inGracePeriod: self = .inGracePeriod
            case .revoked: self = .revoked
            case .unrecognized(let value): self = RenewalState(rawValue: Int(value) ?? 0)
            }
        }
    }

    /// StoreKit 2's `Product.SubscriptionInfo.RenewalInfo`: what happens at the subscription's next renewal.
    public struct RenewalInfo: Equatable, Hashable, Sendable {
        public let originalTransactionID: UInt64
        public let currentProductID: String
        public let willAutoRenew: Bool
        /// The product it renews to, when the customer chose another in the group.
        public let autoRenewPreference: String?
        public let expirationReason: Product.SubscriptionInfo.RenewalInfo.ExpirationReason?
        public let gracePeriodExpirationDate: Date?
        public let isInBillingRetry: Bool
        public let priceIncreaseStatus: Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus
        public let renewalDate: Date?
        public let signedDate: Date
        public let environment: AppStore.Environment
        /// The start of the customer's latest run of the subscription without a lapse of more than 60 days.
        public let recentSubscriptionStartDate: Date
        /// The currency of ``renewalPrice``.
        public let currency: Locale.Currency?
        /// What the next renewal will cost, in ``currency``.
        public let renewalPrice: Decimal?
        /// The win-back offers the customer may redeem now, best first (empty unless the subscription lapsed).
        public let eligibleWinBackOfferIDs: [String]
        /// The offer the next renewal redeems, if any (deprecated in StoreKit beside `offer`, still there).
        public let offerType: Transaction.OfferType?
        public let offerID: String?
        /// The token the subscription was bought with (`appAccountToken(_:)`), if any.
        public let appAccountToken: UUID?
        /// The customer's app transaction id (the same as ``Transaction/appTransactionID``).
        public let appTransactionID: String
        public let jsonRepresentation: Data
        let jws: String

        init(_ payload: RenewalInfoPayload, json: Data, jws: String) throws {
            guard let original = UInt64(payload.originalTransactionId) else {
                throw StoreProblem(description: "an original transaction id that is not a number")
            }
            originalTransactionID = original
            currentProductID = payload.productId
            willAutoRenew = payload.autoRenewStatus == .on
            autoRenewPreference = payload.autoRenewProductId
            expirationReason = payload.expirationIntent.map { ExpirationReason(rawValue: $0.rawValue) }
            gracePeriodExpirationDate = payload.gracePeriodExpiresDate.map(Self.date)
            isInBillingRetry = payload.isInBillingRetryPeriod ?? false
            priceIncreaseStatus =
                switch payload.priceIncreaseStatus {
                case .none: .noIncreasePending
                case .customerHasNotResponded: .pending
                default: .agreed
                }
            renewalDate = Self.date(payload.renewalDate)
            signedDate = Self.date(payload.signedDate)
            environment = AppStore.Environment(rawValue: payload.environment.rawValue)
            recentSubscriptionStartDate = Self.date(payload.recentSubscriptionStartDate)
            currency = Locale.Currency(payload.currency)
            renewalPrice = Decimal(payload.renewalPrice) / 1000
            eligibleWinBackOfferIDs = payload.eligibleWinBackOfferIds ?? []
            offerType = payload.offerType.map { Transaction.OfferType(rawValue: $0.rawValue) }
            offerID = payload.offerIdentifier
            appAccountToken = payload.appAccountToken.flatMap(UUID.init(uuidString:))
            appTransactionID = payload.appTransactionId ?? ""
            jsonRepresentation = json
            self.jws = jws
        }

        private static func date(_ milliseconds: Int64) -> Date {
            Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
        }

        /// StoreKit 2's `RenewalInfo.ExpirationReason`.
        public struct ExpirationReason: RawRepresentable, Equatable, Hashable, Sendable {
            public let rawValue: Int
            public init(rawValue: Int) { self.rawValue = rawValue }

            public static let autoRenewDisabled = ExpirationReason(rawValue: 1)
            public static let billingError = ExpirationReason(rawValue: 2)
            public static let didNotConsentToPriceIncrease = ExpirationReason(rawValue: 3)
            public static let productUnavailable = ExpirationReason(rawValue: 4)
            public static let unknown = ExpirationReason(rawValue: 5)
        }

        /// StoreKit 2's `RenewalInfo.PriceIncreaseStatus`.
        public enum PriceIncreaseStatus: Equatable, Hashable, Sendable {
            case noIncreasePending
            case pending
            case agreed
        }
    }
}

extension Product.SubscriptionInfo.RenewalInfo: CustomDebugStringConvertible {
    /// The signed payload, as JSON.
    public var debugDescription: String { String(decoding: jsonRepresentation, as: UTF8.self) }
}

extension Product.SubscriptionInfo.RenewalInfo: SignedByStore {
    var signedDateValue: Date { signedDate }
}
