import Foundation
import MockStoreTesting
import Testing

/// The stores the end-to-end tests share, one per catalogue, started on first use and stopped with the test process
/// (in its process): a store process per test was a third of the processes the whole suite started (issue 34).
actor SharedEndToEndStores {
    static let shared = SharedEndToEndStores()
    private var started: [String: Task<TestStore, any Error>] = [:]

    func store(_ catalogue: String) async throws -> TestStore {
        if let task = started[catalogue] { return try await task.value }
        let task = Task<TestStore, any Error> {
            var options = TestStore.Options()
            options.catalogue = catalogue
            try options.run(.inProcess)
            return try await TestStore.start(options)
        }
        started[catalogue] = task
        return try await task.value
    }
}

extension StoreProcess {
    /// Runs `body` as a customer of its own on the shared store selling `catalogue`: for a test that changes
    /// nothing of the store's own (no flag, no restart, no clock, no simulated failure). Inside it every `credit`
    /// the test runs acts for that customer (`MOCKSTORE_CUSTOMER`) and so does every typed call of the store, so
    /// the tests sharing it stay apart: their own purchases, unfinished transactions and updates.
    static func withShared<Result>(
        catalogue: String = StoreProcess.catalogue, _ body: (StoreProcess) async throws -> Result
    ) async throws -> Result {
        let store = try await SharedEndToEndStores.shared.store(catalogue)
        let customer = try await store.addNewCustomer(prefix: "e2e")
        return try await store.acting(as: customer) {
            try await Credit.$customer.withValue(customer) { try await body(StoreProcess(shared: store)) }
        }
    }
}
