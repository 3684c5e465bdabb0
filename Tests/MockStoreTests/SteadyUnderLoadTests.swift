import Clocks
import Foundation
import Signing
import StoreTestControls
import StoreWire
import Synchronization
import TestSupport
import Testing

@testable import MockStoreHTTP
@testable import MockStoreServer
@testable import StoreKitCatalogue

/// The store steady under its own load (issue 36, item 5): the notification list paged like Apple's history,
/// notifications to one receiver sent in parallel yet in order for each original transaction, and a purchase
/// answered while a wave of renewals falls due. Correctness only: speed is the bench's (`credit-bench`).
@Suite struct SteadyUnderLoadTests {
    static let coins = "com.example.coins"
    static let weekly = "com.example.news.weekly"
    static let monthly = "com.example.pro.monthly"

    let directory: TemporaryDirectory
    let base = TestClock(milliseconds: fixedDate.millisecondsSince1970)

    init() throws {
        directory = try TemporaryDirectory("steady-under-load")
    }

    /// A sandbox store on the test's clock selling the subscription fixture, sending notifications to `notify`.
    private func store(notify: String? = nil) throws -> MockStore {
        MockStore(
            configuration: .init(
                catalogue: try StoreKitConfiguration.load(contentsOf: Repository.subscriptionCatalogue),
                bundleId: "ai.voicedebrief.app", signer: JWSTransactionSigner.hs256(secret: Array("steady".utf8)),
                clock: base, environment: .sandbox, notificationURL: notify),
            database: try TransactionStore(path: directory.file("store.sqlite")))
    }

    /// `count` customers, each buying `products`.
    private func customersBuy(_ products: [String], count: Int, in store: MockStore) throws {
        for index in 0..<count {
            let name = "customer-\(index)"
            _ = try store.customers.addCustomer(TestCustomerRequest(name: name))
            for product in products {
                try CustomerScope.$name.withValue(name) {
                    _ = try store.purchases.purchase(PurchaseRequestBody(productId: product))
                }
            }
        }
    }
}

// MARK: The notification list, paged

extension SteadyUnderLoadTests {
    @Test func theNotificationListComesInPagesWithNothingLostOrDoubledWhileNotificationsArrive() throws {
        let store = try store()
        defer { try? store.close() }
        for _ in 0..<25 { _ = try store.purchases.purchase(PurchaseRequestBody(productId: Self.coins)) }
        var seen: [String] = []
        var pages: [TestNotificationsBody] = []
        var revision: String?
        repeat {
            let page = try store.notifications.notificationRecords(revision: revision, limit: "10")
            pages.append(page)
            seen += page.notifications.map(\.notificationUUID)
            let next: String = try #require(page.revision, "every page has the token of the next")
            revision = next
            // Made between two pages: the walk finds them on a later page, once.
            if pages.count <= 2 { _ = try store.purchases.purchase(PurchaseRequestBody(productId: Self.coins)) }
        } while pages.last?.hasMore == true
        #expect(pages.map(\.notifications.count) == [10, 10, 7], "27 made, 10 a page")
        #expect(pages.map(\.hasMore) == [true, true, false])
        let every = try store.notifications.notificationRecords().notifications
        #expect(every.count == 27)
        #expect(seen == every.map(\.notificationUUID), "each once, oldest first")
        #expect(every.allSatisfy { $0.notificationType == .oneTimeCharge })

        let empty = try store.notifications.notificationRecords(revision: revision, limit: nil)
        #expect(empty.notifications.isEmpty && empty.hasMore == false && empty.revision == revision)
        _ = try store.purchases.purchase(PurchaseRequestBody(productId: Self.coins))
        let later = try store.notifications.notificationRecords(revision: revision, limit: nil)
        #expect(later.notifications.count == 1, "the last page's revision asks for only what was made since")
        #expect(later.notifications.first?.notificationUUID != nil && later.hasMore == false)
    }

    @Test func aPageIsAskedForWithQueryItemsAndABadOneIsRefusedInPlainWords() throws {
        let store = try store()
        defer { try? store.close() }
        for _ in 0..<3 { _ = try store.purchases.purchase(PurchaseRequestBody(productId: Self.coins)) }
        let router = MockStoreRouter(store: store)
        let first = router.respond(
            to: HTTPRequest(
                method: "GET", path: TestControls.notifications.path(),
                query: [HTTPRequest.QueryItem("limit", "2")]))
        #expect(first.status == 200)
        let page = try JSONDecoder().decode(TestNotificationsBody.self, from: Data(first.body))
        #expect(page.notifications.count == 2 && page.hasMore == true)
        let next = try JSONDecoder().decode(
            TestNotificationsBody.self,
            from: Data(
                router.respond(
                    to: HTTPRequest(
                        method: "GET", path: TestControls.notifications.path(),
                        query: [HTTPRequest.QueryItem("revision", page.revision)])
                ).body))
        #expect(next.notifications.count == 1 && next.hasMore == false)

        for (name, value, code) in [("revision", "not-a-token", StoreErrorCode.invalidRequestRevision), ("limit", "0", .generalBadRequest)] {
            let refused = router.respond(
                to: HTTPRequest(
                    method: "GET", path: TestControls.notifications.path(),
                    query: [HTTPRequest.QueryItem(name, value)]))
            #expect(refused.status == 400, "\(name)=\(value)")
            let error = try JSONDecoder().decode(StoreErrorBody.self, from: Data(refused.body))
            #expect(error.errorCode == code, "\(name)=\(value): \(error.errorMessage)")
        }
    }
}

// MARK: Delivery in parallel, in order per original transaction

extension SteadyUnderLoadTests {
    @Test func whichDueNotificationsGoOutTogether() {
        let order = DeliveryOrder(waitingForRetry: ["9": 1])
        let due: [DeliveryOrder.Candidate] = [
            .init(id: 2, key: "A"), .init(id: 3, key: nil), .init(id: 4, key: "A"), .init(id: 5, key: "B"),
            .init(id: 6, key: "9"), .init(id: 7, key: nil), .init(id: 8, key: "C"),
        ]
        #expect(order.sendable(due, limit: 10) == [2, 3, 5, 7, 8], "A's second waits for its first; 9 for a retry")
        #expect(order.sendable(due, limit: 2) == [2, 3])
        #expect(DeliveryOrder(waitingForRetry: ["A": 9]).sendable(due, limit: 10).contains(2), "a later retry")
    }

    @Test func notificationsGoOutSeveralAtOnceAndInOrderForEachOriginalTransaction() async throws {
        let receiver = try ParallelReceiver()
        let store = try store(notify: receiver.url)
        defer { try? store.close() }
        // Four customers' weekly subscriptions renewing three times each (four notifications about each original
        // transaction), and ten purchases of coins, each its own original transaction.
        try customersBuy([Self.weekly], count: 4, in: store)
        for _ in 0..<10 { _ = try store.purchases.purchase(PurchaseRequestBody(productId: Self.coins)) }
        base.advance(byMilliseconds: 3 * 7 * 86_400_000 + 60_000)
        #expect(store.subscriptions.runDueSubscriptionEvents() == 12)
        // What one look may send together: the earliest of each original transaction, 4 subscriptions' and 10
        // purchases', never two about one original transaction.
        let together = try store.notifications.dueNotifications(limit: 64).due
        #expect(
            together.map(\.type)
                == Array(repeating: .subscribed, count: 4) + Array(repeating: .oneTimeCharge, count: 10))

        let timer = StoreTimer(store: store, dispatcher: NotificationDispatcher(store: store, url: receiver.url))
        defer { timer.stop() }
        let settled = try await eventually(timeout: 60, "every notification delivered") {
            await timer.look()
            return try store.notifications.notificationRecords().notifications.allSatisfy { $0.status == .delivered }
        }
        #expect(settled)
        #expect(receiver.mostInFlight > 1, "more than one notification on the wire at once")

        let records = try store.notifications.notificationRecords().notifications
        #expect(records.count == 26 && receiver.arrivals.count == 26, "each sent once")
        let original = try Dictionary(
            uniqueKeysWithValues: records.map {
                ($0.notificationUUID, try Self.originalTransactionId($0.signedPayload))
            })
        for key in Set(original.values) {
            let made = records.map(\.notificationUUID).filter { original[$0] == key }
            let arrived = receiver.arrivals.filter { original[$0] == key }
            #expect(arrived == made, "original transaction \(key): arrived in the order made")
        }
    }
}

// MARK: A purchase while renewals fall due

extension SteadyUnderLoadTests {
    @Test func aPurchaseIsAnsweredWhileAWaveOfRenewalsFallsDueAndTheWaveIsAllMade() throws {
        let store = try store()
        defer { try? store.close() }
        try customersBuy([Self.weekly, Self.monthly], count: 40, in: store)
        // Five weeks on: every weekly subscription renews five times and every monthly one once, 240 renewals due
        // together, and nobody has run them yet.
        base.advance(byMilliseconds: 5 * 7 * 86_400_000 + 60_000)

        let answer = MockStoreRouter(store: store).respond(
            to: HTTPRequest(
                method: "POST", path: DeviceAPI.purchase.path(),
                headers: [HTTPHeader("Content-Type", "application/json")],
                body: Array(#"{"productId": "\#(Self.coins)"}"#.utf8)))
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        // A subscription bought by a new customer meanwhile: it runs its buyer's due events, not the wave.
        _ = try store.customers.addCustomer(TestCustomerRequest(name: "late"))
        let subscribed = MockStoreRouter(store: store).respond(
            to: HTTPRequest(
                method: "POST", path: DeviceAPI.purchase.path(),
                headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader(MockCustomerHeader.name, "late")],
                body: Array(#"{"productId": "\#(Self.weekly)"}"#.utf8)))
        #expect(subscribed.status == 200, "\(String(decoding: subscribed.body, as: UTF8.self))")
        let renewedBefore = try renewals(store)
        #expect(renewedBefore <= 2 * StoreSubscriptions.eventsPerBatch, "each request ran one batch, not the wave")

        let ran = try #require(store.subscriptions.runDueSubscriptionEvents())
        #expect(renewedBefore + ran == 240)
        #expect(try renewals(store) == 240, "every renewal due was made, in batches")
        let charges = try store.notifications.notificationRecords().notifications.filter {
            $0.notificationType == .oneTimeCharge
        }
        #expect(charges.count == 1, "the purchase made during the wave is recorded")
        #expect(
            try store.notifications.notificationRecords().notifications.filter { $0.notificationType == .subscribed }
                .count == 81, "80 before the wave, one during it")
    }

    /// The original transaction a notification's JWS is about.
    private static func originalTransactionId(_ jws: String) throws -> String {
        let payload = try JSONDecoder().decode(
            NotificationPayload.self, from: Data(try CompactJWS.parse(jws).payload))
        let transaction = try #require(payload.data?.signedTransactionInfo)
        return try JSONDecoder().decode(
            SignedTransactionPayload.self, from: Data(try CompactJWS.parse(transaction).payload)
        ).originalTransactionId
    }

    private func renewals(_ store: MockStore) throws -> Int {
        try store.notifications.notificationRecords().notifications.filter { $0.notificationType == .didRenew }.count
    }
}

/// A receiver that records the order notifications arrive in and how many are on the wire at once. It holds the
/// first arrivals until a second is in flight (or 30 s pass, when the sender sends one at a time), so that a sender
/// that sends in parallel is seen to.
private final class ParallelReceiver: HTTPHandler, @unchecked Sendable {
    // @unchecked: `state` is reached only under `condition`'s lock.
    private let condition = NSCondition()
    private var state = (inFlight: 0, mostInFlight: 0, arrivals: [String](), held: true)
    private var server: HTTPServer?

    init() throws {
        server = try HTTPServer(host: "127.0.0.1", port: 0, handler: self)
    }

    deinit { server?.stop() }

    var url: String { (server?.baseURL ?? "") + "/notifications" }
    var mostInFlight: Int { locked { $0.mostInFlight } }
    var arrivals: [String] { locked { $0.arrivals } }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        let uuid = Self.uuid(request.body)
        condition.lock()
        state.inFlight += 1
        state.mostInFlight = max(state.mostInFlight, state.inFlight)
        state.arrivals.append(uuid)
        if state.inFlight > 1 { state.held = false }
        condition.broadcast()
        let deadline = Date().addingTimeInterval(30)
        while state.held && condition.wait(until: deadline) {}
        state.held = false
        state.inFlight -= 1
        condition.unlock()
        return HTTPResponse(status: 200)
    }

    func payloadTooLarge(limit: Int) -> HTTPResponse { HTTPResponse(status: 413) }

    private func locked<Value>(_ body: ((inFlight: Int, mostInFlight: Int, arrivals: [String], held: Bool)) -> Value)
        -> Value
    {
        condition.lock()
        defer { condition.unlock() }
        return body(state)
    }

    /// The notificationUUID of a `{"signedPayload": JWS}` body.
    private static func uuid(_ body: [UInt8]) -> String {
        guard let signed = try? JSONDecoder().decode(SignedNotificationBody.self, from: Data(body)),
            let payload = try? CompactJWS.parse(signed.signedPayload).payload,
            let notification = try? JSONDecoder().decode(NotificationPayload.self, from: Data(payload))
        else { return "" }
        return notification.notificationUUID
    }
}
