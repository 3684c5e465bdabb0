import Foundation
import MockStoreKit
import MockStoreTesting
import Signing
import StoreWire
import TestSupport
import Testing

/// `Transaction.all`, `Transaction.currentEntitlements` and `Transaction.latest(for:)` for consumables: finished ones
/// in the history only with `SKIncludeConsumableInAppPurchaseHistory`, refunded ones always, never an entitlement.
@Suite struct TransactionHistoryTests {}

extension TransactionHistoryTests {
    @Test func allHoldsFinishedConsumablesOnlyWithTheirHistoryIncluded() async throws {
        let shop = try await StoreKitFixture.shared()
        let history = try await Self.threeConsumables(shop)
        let without = await shop.launch().run { await ids(Transaction.all) }
        #expect(without == [history.refunded, history.unfinished], "finished and not refunded: left out")
        let with = await shop.launch { $0.includesConsumableInAppPurchaseHistory = true }.run {
            await ids(Transaction.all)
        }
        #expect(with == [history.finished, history.refunded, history.unfinished])
    }

    @Test func aRefundedConsumableInTheHistoryIsRevoked() async throws {
        let shop = try await StoreKitFixture.shared()
        let history = try await Self.threeConsumables(shop)
        let all = await shop.launch().run { await results(Transaction.all) }
        let refunded = try #require(all.first { $0.unsafePayloadValue.id == history.refunded })
        #expect(try refunded.payloadValue.revocationDate != nil)
        #expect(try refunded.payloadValue.revocationReason == .other)
        let unfinished = try #require(all.first { $0.unsafePayloadValue.id == history.unfinished })
        #expect(try unfinished.payloadValue.revocationDate == nil)
    }

    @Test func consumablesAreNeverEntitlements() async throws {
        let shop = try await StoreKitFixture.shared()
        _ = try await Self.threeConsumables(shop)
        let session = shop.launch()
        #expect(await session.run { await ids(Transaction.currentEntitlements) } == [])
        #expect(await session.run { await ids(Transaction.currentEntitlements(for: ProductID.credit)) } == [])
    }

    @Test func latestIsTheNewestTransactionOfTheProduct() async throws {
        let shop = try await StoreKitFixture.shared()
        let session = shop.launch()
        let (older, newer) = try await session.run {
            (try await buyVerified(ProductID.credit), try await buyVerified(ProductID.credit))
        }
        let latest = await session.run { await Transaction.latest(for: ProductID.credit) }
        #expect(try latest?.payloadValue.id == newer.id)
        #expect(older.id != newer.id)
        let none = await session.run { await Transaction.latest(for: "com.example.not.sold") }
        #expect(none == nil)
    }

    @Test func latestFindsAFinishedConsumableWithTheHistoryIncluded() async throws {
        let shop = try await StoreKitFixture.shared()
        let session = shop.launch { $0.includesConsumableInAppPurchaseHistory = true }
        let bought = try await session.run { try await buyVerified(ProductID.credit) }
        await session.run { await bought.finish() }
        #expect(try await session.run { await Transaction.latest(for: ProductID.credit) }?.payloadValue.id == bought.id)
        let without = await shop.launch().run { await Transaction.latest(for: ProductID.credit) }
        #expect(without == nil, "without the history a finished consumable is no longer the customer's to list")
    }

    /// Two purchases of one product in the same millisecond: the later one in the history is the latest. The store
    /// here is a scripted `Transaction.all` of the real store's transactions with their purchase dates made equal
    /// (their signatures then fail, and `latest(for:)` hands over unverified results too).
    @Test func latestOfTwoBoughtInTheSameMillisecondIsTheLaterOne() async throws {
        let shop = try await StoreKitFixture.shared()
        let older = try #require(try await shop.acting { try await shop.store.buy(ProductID.credit) }.signedTransaction)
        let newer = try #require(try await shop.acting { try await shop.store.buy(ProductID.credit) }.signedTransaction)
        let date = try Self.payload(of: older).purchaseDate
        let history = SignedTransactionsBody(signedTransactions: try [older, newer].map { try Self.redated($0, date) })
        let body = String(decoding: try JSONEncoder().encode(history), as: UTF8.self)
        let server = try ScriptedHTTPServer { request in
            request.path == DeviceAPI.all.path() ? .whole(status: 200, body: body) : .whole(status: 404, body: "{}")
        }
        defer { server.stop() }
        let url = try #require(URL(string: server.url))
        let latest = await shop.launch { $0.url = url }.run { await Transaction.latest(for: ProductID.credit) }
        #expect(latest?.verificationError == .invalidSignature)
        #expect(latest.map { String($0.unsafePayloadValue.id) } == (try Self.payload(of: newer).transactionId))
    }

    /// The payload of `jws`, unverified.
    private static func payload(of jws: String) throws -> SignedTransactionPayload {
        let part = try #require(jws.split(separator: ".").dropFirst().first.flatMap { Base64URL.decode(String($0)) })
        return try JSONDecoder().decode(SignedTransactionPayload.self, from: Data(part))
    }

    /// `jws` with its purchase date changed to `date`, and its header and signature as they were.
    private static func redated(_ jws: String, _ date: Int64) throws -> String {
        var payload = try payload(of: jws)
        payload.purchaseDate = date
        var parts = jws.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Array(try JSONEncoder().encode(payload)))
        return parts.joined(separator: ".")
    }

    /// Three purchases of the credit, oldest first: one finished, one finished then refunded (reason 0), and one
    /// not finished.
    private static func threeConsumables(_ shop: StoreKitFixture) async throws -> (
        finished: UInt64, refunded: UInt64, unfinished: UInt64
    ) {
        let session = shop.launch()
        let (finished, refunded, unfinished) = try await session.run {
            let finished = try await buyVerified(ProductID.credit)
            await finished.finish()
            let refunded = try await buyVerified(ProductID.credit)
            await refunded.finish()
            return (finished, refunded, try await buyVerified(ProductID.credit))
        }
        _ = try await shop.acting { try await shop.store.refund(String(refunded.id), reason: .refundedForOtherReason) }
        return (finished.id, refunded.id, unfinished.id)
    }
}
