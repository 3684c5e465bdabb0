import Foundation
import MockStoreSQLite
import StoreWire
import Testing

@testable import MockStoreServer

/// Schema version 4 (customers): a version 3 file's subscriptions become the default customer's, each customer has
/// a subscription of their own in a group, and the names a customer may have.
@Suite struct CustomerSchemaTests {
    let lifecycle = SubscriptionLifecycleTests().lifecycle
    let context = SubscriptionLifecycleTests().context

    /// A subscription of the monthly product, as the lifecycle makes one.
    func subscription(_ id: String) throws -> SubscriptionState {
        var state = try lifecycle.subscribe("monthly", previous: nil, at: 1_738_281_600_000, context: context).state
        state.originalTransactionId = id
        state.latestTransactionId = id
        return state
    }
}

extension CustomerSchemaTests {
    @Test func aVersion3FilesSubscriptionsAreTheDefaultCustomersAndAGroupIsPerCustomer() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("v3.sqlite")
        let old = try subscription("2000000000000001")
        do {
            let database = try SQLiteDatabase(path: path)
            for sql in [TransactionStore.schemaSQL, TransactionStore.version2SQL, TransactionStore.version3SQL] {
                try database.execute(sql)
            }
            let json = String(decoding: try JSONEncoder().encode(old), as: UTF8.self)
            try database.prepare(
                "INSERT INTO subscriptions (original_transaction_id, group_id, status, next_event_at, state) "
                    + "VALUES (?1, ?2, 1, ?3, ?4)"
            ).run([.text(old.originalTransactionId), .text(old.groupId), .integer(old.expiresDate), .text(json)])
            try database.close()
        }
        let store = try TransactionStore(path: path)
        defer { try? store.close() }
        #expect(try store.database.userVersion == TransactionStore.schemaVersion)
        #expect(try store.subscriptionStates() == [old], "the default customer's")
        #expect(try store.nextSubscriptionEventDate() == old.expiresDate)

        _ = try store.appTransactionRecord(now: 1)
        let alice = try #require(try store.addCustomer(named: "alice", now: 2))
        #expect(try store.addCustomer(named: "alice", now: 3) == nil, "a name is taken once")
        try store.actFor(customerNamed: "alice")
        #expect(try store.subscriptionStates().isEmpty && store.subscriptionState(groupId: old.groupId) == nil)
        let hers = try subscription("2000000000000002")
        try store.saveSubscription(hers, nextEventAt: hers.expiresDate)
        #expect(try store.subscriptionState(groupId: old.groupId) == hers, "the same group, her own subscription")
        #expect(try store.dueSubscriptionStates(until: hers.expiresDate).map(\.customerId).sorted() == [1, alice.id])
        try store.actFor(customerNamed: nil)
        #expect(try store.subscriptionStates() == [old])

        try store.removeCustomer(alice)
        #expect(try store.everyCustomersSubscriptionStates().map(\.state) == [old])
        #expect(throws: MockStoreError.customerNotFound("alice")) { try store.actFor(customerNamed: "alice") }
    }

    @Test(arguments: [
        ("alice", true), ("bob@example.com", true), ("tester+1_a-b.c", true), ("9", true),
        (String(repeating: "a", count: 64), true), (String(repeating: "a", count: 65), false), ("", false),
        ("-alice", false), (".hidden", false), ("a b", false), ("../x", false), ("élise", false), ("a/b", false),
    ])
    func aCustomersNameIsShortAndPlain(name: String, isValid: Bool) {
        #expect(MockCustomerHeader.isValidName(name) == isValid, "\(name)")
    }
}
