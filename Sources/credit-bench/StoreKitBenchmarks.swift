import Dispatch
import Foundation
import MockStoreKit

/// The purchase row through StoreKit 2's API (MockStoreKit): the same cycles as the raw device API's row, each a
/// `Product.purchase()` (the signed transaction verified under the store's root) and its `Transaction.finish()`.
extension StoreBenchmarks {
    /// Purchase + finish cycles per second through MockStoreKit, eight tasks, beside `baseline` (the raw device API's
    /// rate in this run).
    func storeKitPurchases(baseline: Double?, into table: inout ResultTable) throws {
        let store = try startStore()
        defer { Measure.stop(store.pid, signal: SIGTERM) }
        let url = try require(URL(string: "http://127.0.0.1:\(store.port)"), "the store's URL")
        let root = try rootCertificate(port: store.port)
        let session = MockStoreKitSession(MockStoreKitConfiguration(url: url, rootCertificate: root))
        let seconds = Double(options.httpSeconds)
        let result = Blocking.run { try await Self.cycles(session, clients: 8, seconds: seconds) }
        let (cycles, elapsed) = try result.get()
        let rate = Double(cycles) / elapsed
        let ratio = baseline.map { rate / $0 }
        table.add(
            ResultRow(
                what: "MockStoreKit: purchase + finish cycles/s, 8 tasks (each JWS verified)",
                figure: "\(Format.number(rate)) cycles/s (\(cycles) in \(Format.number(elapsed, decimals: 1)) s)",
                target: ">= 0.8x the raw device API",
                baseline: baseline.map { "raw device API \(Format.number($0)) cycles/s" } ?? "-",
                ratio: ratio.map { "\(Format.number($0, decimals: 2))x" } ?? "-",
                met: ratio.map { Format.yes($0 >= 0.8) } ?? "-"))
    }

    /// Purchases and finishes for `seconds` from `clients` tasks: the cycles done and the seconds taken.
    private static func cycles(_ session: MockStoreKitSession, clients: Int, seconds: Double) async throws
        -> (Int, Double)
    {
        try await session.run {
            guard let product = try await Product.products(for: ["ai.voicedebrief.app.credit.500"]).first else {
                throw BenchError("the store does not sell ai.voicedebrief.app.credit.500")
            }
            let start = Measure.now()
            let deadline = start + seconds
            let cycles = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<clients {
                    group.addTask {
                        var done = 0
                        while Measure.now() < deadline {
                            guard case .success(.verified(let transaction)) = try await product.purchase() else {
                                throw BenchError("a purchase was not a verified success")
                            }
                            await transaction.finish()
                            done += 1
                        }
                        return done
                    }
                }
                return try await group.reduce(0, +)
            }
            return (cycles, Measure.now() - start)
        }
    }

    /// The store's test root certificate (DER).
    private func rootCertificate(port: UInt16) throws -> [UInt8] {
        let client = try LoopbackClient(port: port)
        let answer = try client.request("GET", "/test/v1/root-certificate")
        guard answer.status == 200 else { throw BenchError("the root certificate answered \(answer.status)") }
        return answer.body
    }

    private func require<T>(_ value: T?, _ what: String) throws -> T {
        guard let value else { throw BenchError("no \(what)") }
        return value
    }
}

/// Runs async work to its end from the bench's synchronous code (never from a task of the cooperative pool).
enum Blocking {
    static func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Task {
            do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return box.result ?? .failure(BenchError("the work did not end"))
    }
}

/// Where a blocking run's task leaves its result; written once before the semaphore is signalled.
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
