import Foundation
import MockStoreSQLite
import StoreTestControls
import StoreWire
import Testing

@testable import MockStoreServer

/// `mockstore control customer …` and `--customer` through the real binary: what each accepts, refuses (exit 1 with
/// the store's words, 64 for a command-line mistake), and a store made before customers existed.
@Suite struct CustomerControlBinaryTests {
    static let pack = "ai.voicedebrief.app.credit.500"

    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory("mockstore-customer-controls")
    }

    func start() async throws -> MockStoreHarness {
        try await MockStoreHarness.start(dataDirectory: directory.file("data"))
    }
}

extension CustomerControlBinaryTests {
    @Test func customersAreAddedListedAndRemovedWithClearRefusals() async throws {
        let store = try await start()
        let alice = try await store.control(TestCustomer.self, "customer", "add", "alice", "--storefront", "FRA")
        #expect(alice.name == "alice" && alice.storefront == "FRA" && !alice.isDefault)
        _ = try await store.control(TestCustomer.self, "customer", "add", "bob")
        let listed = try await store.control(TestCustomersBody.self, "customer", "list").customers
        #expect(listed.map(\.name) == [MockCustomerHeader.defaultCustomer, "alice", "bob"])
        #expect(listed.first?.isDefault == true && Set(listed.map(\.appTransactionId)).count == 3)

        let twice = try await store.control("customer", "add", "alice")
        #expect(twice.status == 1 && twice.stderr.contains("There is a customer called \"alice\" already"))
        // Issue 35: removing a customer who does not exist says so, and who does; it does not suggest adding them.
        let unknown = try await store.control("customer", "remove", "carol")
        #expect(unknown.status == 1, "\(unknown.stderr)")
        #expect(
            unknown.stderr.contains("No customer is called \"carol\", so there is nobody to remove"),
            "\(unknown.stderr)")
        #expect(unknown.stderr.contains("The store has 3 customers: default, alice, bob"), "\(unknown.stderr)")
        #expect(unknown.stderr.contains("mockstore control customer list"), "\(unknown.stderr)")
        #expect(!unknown.stderr.contains("customer add"), "\(unknown.stderr)")
        let theDefault = try await store.control("customer", "remove", "default")
        #expect(theDefault.status == 1 && theDefault.stderr.contains("The default customer cannot be removed"))

        // Command-line mistakes (an unknown storefront too): exit 64, nothing sent.
        for arguments in [
            ["customer", "add", "bad name"], ["customer", "add"], ["customer", "list", "alice"],
            ["customer", "rename", "alice"], ["transactions", "--customer", "../x"], ["transactions", "--customer"],
            ["customer", "add", "dave", "--storefront", "XXX"],
        ] {
            let outcome = try await MockStoreHarness.controlInProcess(["control", "--url", store.baseURL] + arguments)
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
        }

        _ = try await store.control(TestTransactionBody.self, "buy", Self.pack, "--customer", "bob")
        _ = try await store.control("customer", "remove", "bob")
        await #expect(
            try store.control(TestCustomersBody.self, "customer", "list").customers.map(\.name) == ["default", "alice"])
        let gone = try await store.control("transactions", "--customer", "bob")
        #expect(gone.status == 1 && gone.stderr.contains("4040020"), "\(gone.stderr)")
    }

    /// On the shared store: the test's own customer is the one the calls without a name act for, beside alice (a
    /// customer of the test's own too).
    @Test func controlsActForTheCustomerTheyNameAndTheDeviceAPIForItsHeader() async throws {
        try await MockStoreHarness.withShared { store in
            let alice = "alice-" + (try #require(store.customer))
            _ = try await store.testStore.addCustomer(alice)
            let bought = try await store.testStore.acting(as: alice) { try await store.testStore.buy(Self.pack) }
            let alices = try await store.testStore.acting(as: alice) { try await store.testStore.transactions() }
            #expect(alices.map(\.transactionId) == [bought.transaction.transactionId])
            await #expect(try store.testStore.transactions().isEmpty)

            // A storefront of one customer's own: prices and settings follow for them only.
            _ = try await store.testStore.acting(as: alice) { try await store.testStore.setStorefront("FRA") }
            await #expect(
                try store.testStore.acting(as: alice) { try await store.testStore.settings() }.currency == "EUR")
            await #expect(try store.testStore.settings().storefront != "FRA")
            let products = DeviceAPI.products.target(.init(ids: [Self.pack]))
            let hers = try await store.request("GET", products, headers: [MockCustomerHeader.name: alice])
            let theirs = try await store.get(products)
            #expect(try hers.decoded(StoreProductsBody.self).products.first?.currency == "EUR")
            #expect(try theirs.decoded(StoreProductsBody.self).products.first?.currency != "EUR")

            // The device API: an unknown customer is a 404 in the store's error style, a bad name a 400; another
            // customer's transaction cannot be finished.
            try expectError(
                try await store.request("GET", DeviceAPI.unfinished.path(), headers: ["X-Mock-Customer": "zed"]),
                status: 404, code: StoreErrorCode.customerNotFound)
            try expectError(
                try await store.request("GET", DeviceAPI.unfinished.path(), headers: ["X-Mock-Customer": "a b"]),
                status: 400, code: StoreErrorCode.generalBadRequest)
            let finish = DeviceAPI.finish.path(.init(transactionId: bought.transaction.transactionId))
            try expectError(
                try await store.request("POST", finish), status: 404, code: StoreErrorCode.transactionIdNotFound)
            let finished = try await store.request("POST", finish, headers: [MockCustomerHeader.name: alice])
            #expect(finished.status == 200)
        }
    }

    @Test func aStoreMadeBeforeCustomersExistedOpensWithItsDataTheDefaultCustomers() async throws {
        let data = directory.file("data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        do {
            // Version 3, as the store wrote it before customers: one paid, unfinished transaction.
            let database = try SQLiteDatabase(path: data + "/mockstore.sqlite")
            for sql in [TransactionStore.schemaSQL, TransactionStore.version2SQL, TransactionStore.version3SQL] {
                try database.execute(sql)
            }
            try database.execute(
                """
                INSERT INTO transactions (id, serial, original_id, product_id, product_type, quantity, price, currency,
                    storefront, storefront_id, purchase_date, original_purchase_date, transaction_reason, ownership_type,
                    origin, status, version, change_sequence, order_id)
                VALUES ('2000000000000007', 7, '2000000000000007', '\(Self.pack)', 'Consumable', 1, 5000, 'GBP', 'GBR',
                    '143444', 1, 1, 'PURCHASE', 'PURCHASED', 'app', 'purchased', 1, 1, 'MOCK00000007');
                UPDATE counters SET value = 7 WHERE name = 'transaction_serial';
                """)
            #expect(try database.userVersion == 3)
            try database.close()
        }
        let store = try await start()
        let unfinished = try await store.get(DeviceAPI.unfinished.path()).decoded(
            SignedTransactionsBody.self)
        #expect(unfinished.signedTransactions.count == 1, "the old purchase is the default customer's")
        _ = try await store.testStore.addCustomer("alice")
        let hers = try await store.request(
            "GET", DeviceAPI.unfinished.path(), headers: [MockCustomerHeader.name: "alice"])
        #expect(try hers.decoded(SignedTransactionsBody.self).signedTransactions.isEmpty)
        let next = try await store.testStore.acting(as: "alice") { try await store.testStore.buy(Self.pack) }
        #expect(next.transaction.transactionId == "2000000000000008", "ids go on from the old store's")
    }
}
