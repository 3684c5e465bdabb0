import Clocks
import Foundation
import Synchronization
import Testing

@testable import MockStoreCommand
@testable import MockStoreHTTP
@testable import MockStoreServer
@testable import StoreKitCatalogue

/// A clock that always says the same time.
struct FixedClock: StoreClock {
    var date: Date
    func currentMilliseconds() -> Int64 { date.millisecondsSince1970 }
}

/// A clock that moves only when the test moves it.
final class ManualClock: StoreClock {
    private let current: Mutex<Date>

    init(_ start: Date) {
        current = Mutex(start)
    }

    func currentMilliseconds() -> Int64 { current.withLock { $0 }.millisecondsSince1970 }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// Ids `prefix` + serial, to tell injected ids from the default ones.
struct PrefixedIDs: TransactionIDSource {
    var prefix: String
    func transactionID(forSerial serial: Int64) -> String { prefix + String(serial) }
}

extension Repository {
    static var interopScript: String { root + "/Tests/Interop/verify_transactions.py" }
}

/// 2025-10-09T08:53:20Z, a fixed instant for payload checks (1 760 000 000 000 ms).
let fixedDate = Date(timeIntervalSince1970: 1_760_000_000)

extension MockStore {
    /// A store over a new database in `directory`, with the test catalogue of two products (the app's pack and a
    /// second), `signer` and a fixed clock.
    static func fresh(in directory: TemporaryDirectory, signer: any TransactionSigner) throws -> MockStore {
        MockStore(
            configuration: .init(
                catalogue: try StoreKitConfiguration.load(contentsOf: Repository.twoPackCatalogue),
                bundleId: "ai.voicedebrief.app", signer: signer, clock: ManualClock(fixedDate)),
            database: try TransactionStore(path: directory.file("store.sqlite")))
    }
}

extension HTTPResponse {
    /// The body decoded as `type`, recording a test issue (and returning nil) when it is not.
    func decoded<Body: Decodable>(
        _ type: Body.Type, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Body? {
        do {
            return try JSONDecoder().decode(type, from: Data(body))
        } catch {
            Issue.record(
                "body is not \(type): \(error); body: \(String(decoding: body, as: UTF8.self))",
                sourceLocation: sourceLocation)
            return nil
        }
    }
}
