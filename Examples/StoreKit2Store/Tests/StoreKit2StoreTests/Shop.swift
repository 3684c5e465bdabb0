import Foundation
import MockStoreTesting
import Observation
import Testing

@testable import StoreKit2Store

/// The one mock store these tests buy from, and the one app `Store` on it.
///
/// MockStoreKit is configured by the environment alone, read at the first StoreKit call (as an app reads nothing but
/// its bundle): so the store is started, its root certificate written to a file and `MOCKSTORE_URL` /
/// `MOCKSTORE_ROOT_CERTIFICATE` set before the app's `Store` (whose init starts the updates listener and loads the
/// products) exists. The environment is the process's, so the suite is serialized, on one store.
@MainActor
enum Shop {
    private static var started: (store: TestStore, app: Store)?

    /// The example's catalogue: `Examples/StoreKit2Store/Store.storekit`.
    static let catalogue = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Store.storekit").path

    /// The mock store (its test controls) and the app's store, once its products are loaded.
    static func open() async throws -> (store: TestStore, app: Store) {
        let shop = try await start()
        try await until("the products to load") {
            !shop.app.fuel.isEmpty && !shop.app.cars.isEmpty && !shop.app.subscriptions.isEmpty
        }
        return shop
    }

    private static func start() async throws -> (store: TestStore, app: Store) {
        if let started { return started }
        var options = TestStore.Options()
        options.catalogue = catalogue  // the binary: $MOCKSTORE_BINARY (run.sh sets it)
        let store = try await TestStore.start(options)
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("storekit2store-root-\(UUID().uuidString).der")
        try await store.rootCertificate().write(to: root)
        setenv("MOCKSTORE_URL", store.url.absoluteString, 1)
        setenv("MOCKSTORE_ROOT_CERTIFICATE", root.path, 1)
        unsetenv("MOCKSTORE_CUSTOMER")  // the store's default customer
        let app = Store()
        started = (store, app)
        return (store, app)
    }
}

/// Why a wait ended without what it waited for.
struct TimedOut: Error, CustomStringConvertible {
    let waitingFor: String
    var description: String { "timed out waiting for \(waitingFor)" }
}

/// Waits until `condition` (which reads the app's observable `Store`) holds, woken by each change to what it read
/// (`withObservationTracking`), never by a timer; `limit` only bounds a hang.
@MainActor
func until(
    _ waitingFor: String, within limit: Duration = .seconds(30), _ condition: @escaping @MainActor () -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while true {
        let (changed, signal) = AsyncStream.makeStream(of: Void.self)
        let holds = withObservationTracking {
            condition()
        } onChange: {
            signal.yield()
            signal.finish()
        }
        if holds { return }
        let woken = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in changed { return true }
                return false
            }
            group.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                return false
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
        if !woken { throw TimedOut(waitingFor: waitingFor) }
    }
}
