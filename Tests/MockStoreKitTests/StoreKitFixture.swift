import Foundation
import MockStoreKit
import MockStoreTesting
import Signing
import StoreTestControls
import StoreWire
import TestSupport
import Testing

/// The products the suites buy.
enum ProductID {
    /// The app's one pack: a consumable, £5.00 (`Repository.catalogue`).
    static let credit = "ai.voicedebrief.app.credit.500"
    /// A consumable of `Repository.subscriptionCatalogue`.
    static let coins = "com.example.coins"
    /// An auto-renewable subscription of `Repository.subscriptionCatalogue`, group "Pro" (`21C0FFEE`).
    static let proYearly = "com.example.pro.yearly"
}

/// A mock store for a test (in memory, a port of its own), with the root it signs under, and the app's launches
/// on it: each ``launch(_:)`` is a new ``MockStoreKitSession``, so tests run side by side. ``start(catalogue:)``
/// starts a store of the test's own (for a test that changes what is the store's: failures, Ask to Buy, the clock);
/// ``shared(catalogue:)`` gives a customer of the test's own on one store the suites share.
struct StoreKitFixture: Sendable {
    let store: TestStore
    /// The DER of the store's test root: what a launch trusts unless told otherwise.
    let root: [UInt8]
    /// The customer the fixture's launches and calls act for; nil: the store's default customer.
    let customer: String?

    /// Starts a store selling `catalogue`'s products and reads its root.
    static func start(catalogue: String = Repository.catalogue) async throws -> StoreKitFixture {
        var options = TestStore.Options()
        options.catalogue = catalogue
        try options.run(.inProcess)
        let store = try await TestStore.start(options)
        return StoreKitFixture(store: store, root: Array(try await store.rootCertificate()), customer: nil)
    }

    /// A new customer on the store the suites share for `catalogue` (started on first use, stopped when the test
    /// process ends): for a test that changes nothing of the store's own.
    static func shared(catalogue: String = Repository.catalogue) async throws -> StoreKitFixture {
        let store = try await SharedStores.shared.store(catalogue)
        let customer = try await store.store.addNewCustomer(prefix: "t")
        return StoreKitFixture(store: store.store, root: store.root, customer: customer)
    }

    /// A new launch of the app on this store, trusting its root, as the fixture's customer; `adjust` changes the
    /// configuration first.
    func launch(_ adjust: (inout MockStoreKitConfiguration) -> Void = { _ in }) -> MockStoreKitSession {
        var configuration = MockStoreKitConfiguration(
            url: store.url, rootCertificate: root, customer: customer, updatesInterval: 0.02)
        adjust(&configuration)
        return MockStoreKitSession(configuration)
    }

    /// Runs `body` as the fixture's customer (the store's controls act for them).
    func acting<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        guard let customer else { return try await body() }
        return try await store.acting(as: customer, body)
    }

    /// The transaction the store holds with `id`, as its test controls list it.
    func storedTransaction(_ id: UInt64) async throws -> TestTransaction? {
        try await acting { try await store.transactions() }.first { $0.transactionId == String(id) }
    }
}

/// The stores the MockStoreKit suites share, one per catalogue, each started once.
actor SharedStores {
    static let shared = SharedStores()
    private var started: [String: Task<(store: TestStore, root: [UInt8]), any Error>] = [:]

    func store(_ catalogue: String) async throws -> (store: TestStore, root: [UInt8]) {
        if let task = started[catalogue] { return try await task.value }
        let task = Task<(store: TestStore, root: [UInt8]), any Error> {
            let fixture = try await StoreKitFixture.start(catalogue: catalogue)
            return (fixture.store, fixture.root)
        }
        started[catalogue] = task
        return try await task.value
    }
}

/// A test certificate authority the mock store has never heard of: its root is not the store's.
func foreignRoot() throws -> Certificate {
    try TestCertificateAuthority.make(commonNamePrefix: "Not The Store", validFrom: Date(timeIntervalSinceNow: -3600))
        .root
}

/// The one product with `id`, as StoreKit loads it.
func product(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Product {
    try #require(
        try await Product.products(for: [id]).first, "the store sells no \(id)", sourceLocation: sourceLocation)
}

/// Buys `id` and gives the verified transaction; records an issue (and throws) for any other result.
func buyVerified(
    _ id: String, options: Set<Product.PurchaseOption> = [], sourceLocation: SourceLocation = #_sourceLocation
) async throws -> Transaction {
    let result = try await product(id, sourceLocation: sourceLocation).purchase(options: options)
    guard case .success(.verified(let transaction)) = result else {
        Issue.record("buying \(id) gave \(result), not a verified success", sourceLocation: sourceLocation)
        throw FixtureFailure.unexpected("\(result)")
    }
    return transaction
}

extension VerificationResult {
    /// Why it did not verify; nil when it did.
    var verificationError: VerificationError? {
        guard case .unverified(_, let error) = self else { return nil }
        return error
    }
}

/// The ids of the transactions in `sequence` (a sequence that ends), in order.
func ids(_ sequence: Transaction.Transactions) async -> [UInt64] {
    var found: [UInt64] = []
    for await result in sequence { found.append(result.unsafePayloadValue.id) }
    return found
}

/// Every result of `sequence` (a sequence that ends), in order.
func results(_ sequence: Transaction.Transactions) async -> [VerificationResult<Transaction>] {
    var found: [VerificationResult<Transaction>] = []
    for await result in sequence { found.append(result) }
    return found
}

/// The store's id of a transaction a test control made.
func transactionID(_ body: TestTransactionBody, sourceLocation: SourceLocation = #_sourceLocation) throws -> UInt64 {
    try #require(UInt64(body.transaction.transactionId), sourceLocation: sourceLocation)
}

/// What a fixture throws after recording an issue, so the test stops there.
enum FixtureFailure: Error {
    case unexpected(String)
}
