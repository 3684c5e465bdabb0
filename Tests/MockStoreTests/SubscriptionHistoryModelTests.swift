import Foundation
import Signing
import StoreWire
import Testing

@testable import MockStoreServer
@testable import StoreKitCatalogue

/// Random subscription histories (seeded, bounded, deterministic) against an independent model of the rules:
/// after every step the entitlement, the Server API history and the notifications agree with the model and with
/// each other.
@Suite struct SubscriptionHistoryModelTests {
    static let secret = Array("subscription-model-secret".utf8)
    static let seeds: [UInt64] = [0x5EED_0001, 0x5EED_0002, 0x5EED_0003, 0x5EED_0004]
    static let steps = 45

    /// What the test expects of one group.
    struct GroupModel {
        var everSubscribed = false
        var active = false
        var productId = ""
        var autoRenewProductId = ""
        var autoRenew = true
        var expires: Int64 = 0
        var usedIntro = false
    }

    struct Expected: Equatable, CustomStringConvertible {
        var type: NotificationType
        var subtype: NotificationSubtype?
        var description: String { type.rawValue + (subtype.map { "/" + $0.rawValue } ?? "") }
    }

    let catalogue: StoreKitConfiguration
    let products: [String: CatalogueProduct]

    init() throws {
        catalogue = try StoreKitConfiguration.load(
            contentsOf: Repository.root + "/Tests/Fixtures/Subscriptions.storekit")
        products = Dictionary(
            catalogue.products.filter { $0.type == .autoRenewable }.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }
        )
    }

    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    static func add(_ period: SubscriptionPeriod, _ count: Int = 1, to date: Int64) -> Int64 {
        var components = DateComponents()
        switch period.unit {
        case .day: components.day = period.value * count
        case .week: components.day = 7 * period.value * count
        case .month: components.month = period.value * count
        case .year: components.year = period.value * count
        }
        let moved = calendar.date(byAdding: components, to: Date(timeIntervalSince1970: Double(date) / 1000))!
        return Int64((moved.timeIntervalSince1970 * 1000).rounded())
    }

    func details(_ id: String) -> SubscriptionDetails { products[id]!.subscription! }

    /// The first period's end: the introductory offer's length when it applies.
    func firstEnd(_ id: String, at date: Int64, intro: Bool) -> Int64 {
        guard intro, let offer = details(id).introductoryOffer else { return Self.add(details(id).period, to: date) }
        return offer.paymentMode == .payAsYouGo
            ? Self.add(offer.period, to: date) : Self.add(offer.period, offer.periodCount, to: date)
    }

    @Test func theCataloguesTimeRateIsTheDefaultAndTheClockOutlivesARestart() throws {
        let directory = try TemporaryDirectory()
        var configured = catalogue
        configured.settings.timeRate = TimeRate.monthlyRenewalEveryFiveMinutes.rawValue
        let base = ManualClock(fixedDate)
        func open() throws -> MockStore {
            MockStore(
                configuration: .init(
                    catalogue: configured, bundleId: "ai.voicedebrief.app",
                    signer: JWSTransactionSigner.hs256(secret: Self.secret), clock: base),
                database: try TransactionStore(path: directory.file("store.sqlite")))
        }
        var store = try open()
        #expect(
            store.clockControls.clock().rate == .monthlyRenewalEveryFiveMinutes
                && store.clockControls.clock().factor == 30 * 86_400 / 300)
        _ = try store.purchases.purchase(PurchaseRequestBody(productId: "com.example.news.weekly"))
        let expires = try #require(try store.subscriptions.testSubscriptions().subscriptions.first?.expiresDate)
        // At a monthly renewal every five minutes Apple renews a weekly subscription every three: 180 s.
        base.advance(by: 181)
        _ = try store.clockControls.setClockRate("realTime")
        try store.close()
        store = try open()
        defer { try? store.close() }
        #expect(store.clockControls.clock().rate == .realTime, "the rate set is kept, not the catalogue's")
        #expect(store.nowMilliseconds >= expires)
        let renewed = try store.subscriptions.testSubscriptions().subscriptions.first
        #expect((renewed?.expiresDate ?? 0) > expires, "the renewal that fell due ran at the first call")
        let feed = try store.purchases.updates(after: "0")
        #expect(feed.signedTransactions.count == 1, "the renewal reaches the app through the updates feed")
    }

    @Test(arguments: seeds) func randomHistoriesAgreeAtEveryStep(seed: UInt64) throws {
        let directory = try TemporaryDirectory()
        let base = ManualClock(fixedDate)
        let store = MockStore(
            configuration: .init(
                catalogue: catalogue, bundleId: "ai.voicedebrief.app",
                signer: JWSTransactionSigner.hs256(secret: Self.secret), clock: base),
            database: try TransactionStore(path: directory.file("store.sqlite")))
        defer { try? store.close() }
        var random = SeededRandom(seed: seed)
        var groups: [String: GroupModel] = [:]
        let ids = products.keys.sorted()
        for step in 0..<Self.steps {
            let before = try store.notifications.notificationRecords().notifications.count
            var expected: [String: [Expected]] = [:]  // by group
            let now = store.nowMilliseconds
            let action = random.pick(["buy", "buy", "renew", "auto", "refund", "expire", "advance", "advance", "wait"])
            let productId = random.pick(ids)
            let group = details(productId).groupID
            var model = groups[group] ?? GroupModel()
            let context = "seed \(seed.seedText) step \(step) \(action) \(productId)"
            switch action {
            case "buy":
                _ = try store.purchases.purchase(PurchaseRequestBody(productId: productId))
                if !model.active {
                    let intro = !model.usedIntro && details(productId).introductoryOffer != nil
                    expected[group] = [
                        Expected(type: .subscribed, subtype: model.everSubscribed ? .resubscribe : .initialBuy)
                    ]
                    model = GroupModel(
                        everSubscribed: true, active: true, productId: productId, autoRenewProductId: productId,
                        autoRenew: true, expires: firstEnd(productId, at: now, intro: intro),
                        usedIntro: model.usedIntro || intro)
                } else if productId == model.productId {
                    if model.autoRenewProductId != productId {
                        expected[group] = [Expected(type: .didChangeRenewalPref, subtype: nil)]
                        model.autoRenewProductId = productId
                    }
                } else if productId != model.autoRenewProductId {
                    let (old, new) = (details(model.productId), details(productId))
                    if new.groupLevel < old.groupLevel || (new.groupLevel == old.groupLevel && new.period == old.period)
                    {
                        expected[group] = [Expected(type: .didChangeRenewalPref, subtype: .upgrade)]
                        model.productId = productId
                        model.autoRenewProductId = productId
                        model.autoRenew = true
                        model.expires = Self.add(new.period, to: now)
                    } else {
                        expected[group] = [Expected(type: .didChangeRenewalPref, subtype: .downgrade)]
                        model.autoRenewProductId = productId
                    }
                }
            case "renew", "auto", "refund", "expire":
                guard model.active else {
                    // Nothing in force: the controls refuse (expired or never bought).
                    if action == "renew" && model.everSubscribed {
                        #expect(throws: MockStoreError.self, "\(context)") {
                            try store.subscriptions.forceRenewal(productId)
                        }
                    }
                    continue
                }
                switch action {
                case "renew":
                    _ = try store.subscriptions.forceRenewal(productId)
                    expected[group] = [Expected(type: .didRenew, subtype: nil)]
                    model.productId = model.autoRenewProductId
                    model.expires = Self.add(details(model.productId).period, to: now)
                case "auto":
                    let on = random.chance(0.5)
                    _ = try store.subscriptions.setAutoRenew(productId, enabled: on)
                    if on != model.autoRenew {
                        expected[group] = [
                            Expected(
                                type: .didChangeRenewalStatus,
                                subtype: on ? .autoRenewEnabled : .autoRenewDisabled)
                        ]
                        model.autoRenew = on
                    }
                case "refund":
                    let latest = try store.subscriptions.testSubscriptions().subscriptions.first {
                        $0.subscriptionGroupIdentifier == group
                    }
                    _ = try store.refunds.refund(
                        id: try #require(latest?.latestTransactionId), reason: .refundedForOtherReason)
                    // After a refund the App Store turns auto-renew off, and says so when it was on.
                    expected[group] =
                        [Expected(type: .refund, subtype: nil)]
                        + (model.autoRenew
                            ? [Expected(type: .didChangeRenewalStatus, subtype: .autoRenewDisabled)] : [])
                    model.active = false
                default:
                    _ = try store.subscriptions.expireSubscription(productId)
                    expected[group] = [Expected(type: .expired, subtype: .voluntary)]
                    model.active = false
                }
            case "advance":
                let duration = random.pick(["PT12H", "P3D", "P1W", "P1M", "P2M"])
                let target = try #require(ClockDuration(iso8601: duration)?.added(to: now))
                let answer = try store.clockControls.advanceClock(by: duration)
                #expect(answer.now == target, "\(context)")
                expected = Self.simulate(&groups, until: target, details: details)
                let dates = (answer.events ?? []).map(\.date)
                #expect(dates == dates.sorted(), "\(context): events run in order")
            default:
                // Real time passes (at the real-time rate): what falls due in it runs at the next request.
                base.advance(by: 3_600)
                expected = Self.simulate(&groups, until: store.nowMilliseconds, details: details)
            }
            if action != "advance" && action != "wait" { groups[group] = model }
            try check(store, groups, expected: expected, since: before, context: context)
        }
        // Not a vacuous run: the seed made a history with notifications of several kinds.
        let kinds = Set(try store.notifications.notificationRecords().notifications.map(\.notificationType))
        #expect(kinds.count >= 3, "seed \(seed.seedText): \(kinds)")
    }

    /// The three views agree with the model: entitlements, the subscriptions' transactions in the history, and the
    /// notifications made in the step (each group's in order, with the status after it).
    func check(
        _ store: MockStore, _ groups: [String: GroupModel], expected: [String: [Expected]], since before: Int,
        context: String
    ) throws {
        let now = store.nowMilliseconds
        let states = try store.subscriptions.testSubscriptions().subscriptions
        let entitled = try store.subscriptions.currentEntitlements().signedTransactions.map(Self.payload)
        let expectedProducts = groups.values.filter { $0.active && $0.expires > now }.map(\.productId).sorted()
        #expect(entitled.map(\.productId).sorted() == expectedProducts, "\(context): entitlements")
        for transaction in entitled {
            #expect((transaction.expiresDate ?? 0) > now && transaction.revocationDate == nil, "\(context)")
            let state = states.first { $0.originalTransactionId == transaction.originalTransactionId }
            #expect(state?.latestTransactionId == transaction.transactionId && state?.isEntitled == true, "\(context)")
        }
        for (group, model) in groups {
            let state = try #require(states.first { $0.subscriptionGroupIdentifier == group }, "\(context)")
            if model.active {
                #expect(state.expiresDate == model.expires, "\(context): \(group) expires")
                #expect(state.productId == model.productId && state.autoRenewProductId == model.autoRenewProductId)
                #expect(state.autoRenewStatus == (model.autoRenew ? .on : .off), "\(context)")
            } else {
                #expect(state.status == .expired || state.status == .revoked, "\(context): \(group) ended")
            }
        }
        // The history (Server API, every page) holds each subscription's latest transaction, newest per subscription.
        if let anyId = states.first?.latestTransactionId {
            var history: [SignedTransactionPayload] = []
            var revision: String?
            repeat {
                let page = try store.serverAPI.history(
                    .init(transactionId: anyId, revision: revision, productType: [.autoRenewable]))
                history += try page.signedTransactions.map(Self.payload)
                revision = page.hasMore ? page.revision : nil
            } while revision != nil
            for state in states {
                let own = history.filter { $0.originalTransactionId == state.originalTransactionId }
                #expect(
                    own.max {
                        ($0.purchaseDate, $0.transactionId.count, $0.transactionId) < (
                            $1.purchaseDate, $1.transactionId.count, $1.transactionId
                        )
                    }?.transactionId == state.latestTransactionId, "\(context): history's latest")
                #expect(
                    own.allSatisfy {
                        $0.subscriptionGroupIdentifier == state.subscriptionGroupIdentifier
                            && $0.type == .autoRenewableSubscription
                    })
            }
            let byGroup = Dictionary(grouping: history, by: { $0.subscriptionGroupIdentifier ?? "" })
            let groupsFiltered = try store.serverAPI.history(
                .init(transactionId: anyId, subscriptionGroupIdentifier: [states[0].subscriptionGroupIdentifier]))
            #expect(
                groupsFiltered.signedTransactions.count
                    == min(20, byGroup[states[0].subscriptionGroupIdentifier]?.count ?? 0), "\(context): group filter")
        }
        // The notifications of this step.
        let made = Array(try store.notifications.notificationRecords().notifications.dropFirst(before))
        var seen: [String: [Expected]] = [:]
        for record in made {
            let payload = try Self.decode(record.signedPayload, as: NotificationPayload.self)
            let transaction = try Self.payload(try #require(payload.data?.signedTransactionInfo))
            let group = try #require(transaction.subscriptionGroupIdentifier)
            seen[group, default: []].append(Expected(type: payload.notificationType, subtype: payload.subtype))
            let renewal = try Self.decode(try #require(payload.data?.signedRenewalInfo), as: RenewalInfoPayload.self)
            #expect(renewal.originalTransactionId == transaction.originalTransactionId, "\(context)")
            #expect(payload.data?.status != nil, "\(context): status in the data")
        }
        #expect(seen == expected, "\(context): notifications")
        // Each subscription's last notification tells the status it is in now.
        for state in states {
            let last = try made.map { try Self.decode($0.signedPayload, as: NotificationPayload.self) }.last {
                (try? Self.payload($0.data?.signedTransactionInfo ?? ""))?.originalTransactionId
                    == state.originalTransactionId
            }
            if let last {
                #expect(last.data?.status == state.status, "\(context): status of \(state.subscriptionGroupIdentifier)")
            }
        }
    }

    /// What the clock does by `target` to every group in force, in the model.
    static func simulate(
        _ groups: inout [String: GroupModel], until target: Int64, details: (String) -> SubscriptionDetails
    ) -> [String: [Expected]] {
        var expected: [String: [Expected]] = [:]
        for key in groups.keys.sorted() {
            var each = groups[key]!
            var events: [Expected] = []
            while each.active && each.expires <= target {
                if each.autoRenew {
                    events.append(Expected(type: .didRenew, subtype: nil))
                    each.productId = each.autoRenewProductId
                    each.expires = add(details(each.productId).period, to: each.expires)
                } else {
                    events.append(Expected(type: .expired, subtype: .voluntary))
                    each.active = false
                }
            }
            if !events.isEmpty { expected[key] = events }
            groups[key] = each
        }
        return expected
    }

    static func decode<T: Decodable>(_ jws: String, as type: T.Type) throws -> T {
        let parsed = try CompactJWS.parse(jws)
        try parsed.verifyHS256(secret: secret)
        return try JSONDecoder().decode(type, from: Data(parsed.payload))
    }

    static func payload(_ jws: String) throws -> SignedTransactionPayload {
        try decode(jws, as: SignedTransactionPayload.self)
    }
}
