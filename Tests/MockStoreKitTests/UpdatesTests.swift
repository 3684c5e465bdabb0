import Foundation
import MockStoreKit
import MockStoreTesting
import StoreWire
import TestSupport
import Testing

/// `Transaction.updates`: the launch's unfinished transactions first, once a launch, then each transaction made or
/// changed outside a purchase call (Ask to Buy approvals, resolved interruptions, refunds) as it happens. Each test
/// waits for the next update, never for a time.
@Suite struct UpdatesTests {}

extension UpdatesTests {
    @Test func anApprovedAskToBuyPurchaseArrivesOnUpdates() async throws {
        let shop = try await StoreKitFixture.start()
        try await shop.store.setAskToBuy(true)
        let session = shop.launch()
        let result = try await session.run { try await product(ProductID.credit).purchase() }
        #expect(result == .pending)
        let waiting = try #require(try await shop.store.transactions().first { $0.status == .pending })
        #expect(await session.run { await ids(Transaction.unfinished) } == [], "a purchase waiting is not paid")
        // Bought outside the app and unfinished: the launch's first update, after which the listener has its place.
        let outside = try transactionID(try await shop.store.buy(ProductID.credit))
        let (first, approved) = try await withinTimeLimit {
            try await session.run {
                var updates = Transaction.updates.makeAsyncIterator()
                let first = await updates.next()
                try await shop.store.approve(waiting.transactionId)
                return (first, await updates.next())
            }
        }
        #expect(first?.unsafePayloadValue.id == outside)
        let transaction = try #require(approved).payloadValue
        #expect(String(transaction.id) == waiting.transactionId)
        #expect(transaction.productID == ProductID.credit)
        #expect(transaction.revocationDate == nil)
    }

    @Test func aResolvedInterruptedPurchaseArrivesOnUpdates() async throws {
        let shop = try await StoreKitFixture.start()
        try await shop.store.setInterruptedPurchases(true)
        let session = shop.launch()
        let result = try await session.run { try await product(ProductID.credit).purchase() }
        #expect(result == .userCancelled, "StoreKit 2 reports an interrupted purchase as cancelled")
        let waiting = try #require(try await shop.store.transactions().first { $0.status == .pending })
        let outside = try transactionID(try await shop.store.buy(ProductID.credit))
        let (first, resolved) = try await withinTimeLimit {
            try await session.run {
                var updates = Transaction.updates.makeAsyncIterator()
                let first = await updates.next()
                try await shop.store.resolve(waiting.transactionId)
                return (first, await updates.next())
            }
        }
        #expect(first?.unsafePayloadValue.id == outside)
        #expect(try #require(resolved).payloadValue.id == UInt64(waiting.transactionId))
    }

    @Test func aRefundOfAFinishedPurchaseArrivesOnUpdatesRevoked() async throws {
        let shop = try await StoreKitFixture.shared()
        let session = shop.launch()
        let bought = try await session.run { try await buyVerified(ProductID.credit) }
        await session.run { await bought.finish() }
        let outside = try transactionID(try await shop.acting { try await shop.store.buy(ProductID.credit) })
        let (first, refunded) = try await withinTimeLimit {
            try await session.run {
                var updates = Transaction.updates.makeAsyncIterator()
                let first = await updates.next()
                _ = try await shop.acting {
                    try await shop.store.refund(String(bought.id), reason: .refundedDueToIssue)
                }
                return (first, await updates.next())
            }
        }
        #expect(first?.unsafePayloadValue.id == outside, "a launch hands over the unfinished, not the finished")
        let transaction = try #require(refunded).payloadValue
        #expect(transaction.id == bought.id)
        #expect(transaction.revocationDate != nil)
        #expect(transaction.revocationReason == .developerIssue)
    }

    @Test func everyLaunchStartsWithTheUnfinishedTransactionsOldestFirst() async throws {
        let shop = try await StoreKitFixture.shared()
        let older = try transactionID(try await shop.acting { try await shop.store.buy(ProductID.credit) })
        let newer = try transactionID(try await shop.acting { try await shop.store.buy(ProductID.credit, quantity: 2) })
        let firstLaunch = shop.launch()
        let secondLaunch = shop.launch()
        let (first, second) = try await withinTimeLimit {
            (await firstUpdates(2, in: firstLaunch), await firstUpdates(2, in: secondLaunch))
        }
        #expect(first == [older, newer])
        #expect(second == [older, newer], "a new launch hands them over again")
    }

    /// The launch's unfinished transactions go to the launch's first listener only: a second listener of the same
    /// launch starts at the store's present. The store here is a scripted updates feed (real signed transactions), so
    /// the second listener's start and the change after it come in a fixed order.
    @Test func aSecondListenerOfTheSameLaunchDoesNotGetThemAgain() async throws {
        let shop = try await StoreKitFixture.shared()
        let unfinished = try #require(
            try await shop.acting { try await shop.store.buy(ProductID.credit) }.signedTransaction)
        let later = try #require(
            try await shop.acting { try await shop.store.buy(ProductID.credit, quantity: 3) }.signedTransaction)
        let feed = try ScriptedHTTPServer(Self.updatesFeed(launch: unfinished, then: later))
        defer { feed.stop() }
        let url = try #require(URL(string: feed.url))
        let launch = shop.launch { $0.url = url }
        let relaunch = shop.launch { $0.url = url }
        let (first, second, again) = try await withinTimeLimit {
            let (first, second) = await launch.run {
                var listener = Transaction.updates.makeAsyncIterator()
                let first = await listener.next()
                var another = Transaction.updates.makeAsyncIterator()
                return (first, await another.next())
            }
            return (first, second, await firstUpdates(1, in: relaunch).first)
        }
        #expect(first?.unsafePayloadValue.purchasedQuantity == 1, "the launch's unfinished transaction")
        #expect(second?.unsafePayloadValue.purchasedQuantity == 3, "the second listener's first is the change")
        #expect(again == first?.unsafePayloadValue.id, "a new launch gets the unfinished one again")
        #expect(second?.verificationError == nil)
    }

    /// The first `count` updates of a listener of `session`, by id.
    private func firstUpdates(_ count: Int, in session: MockStoreKitSession) async -> [UInt64] {
        await session.run {
            var found: [UInt64] = []
            for await update in Transaction.updates.prefix(count) { found.append(update.unsafePayloadValue.id) }
            return found
        }
    }

    /// An updates feed: with no cursor (a listener starting) `launch` and cursor 1; after 1 `later` and cursor 2;
    /// after 2 nothing new.
    private static func updatesFeed(launch: String, then later: String)
        -> @Sendable (ScriptedHTTPServer.Request) -> ScriptedHTTPServer.Reply
    {
        { request in
            guard request.path == DeviceAPI.updates.path() else { return .whole(status: 404, body: "{}") }
            let page: TransactionUpdatesBody
            switch request.query["after"] {
            case nil: page = TransactionUpdatesBody(signedTransactions: [launch], cursor: "1", hasMore: false)
            case "1": page = TransactionUpdatesBody(signedTransactions: [later], cursor: "2", hasMore: false)
            default: page = TransactionUpdatesBody(signedTransactions: [], cursor: "2", hasMore: false)
            }
            let json = (try? JSONEncoder().encode(page)) ?? Data()
            return .whole(status: 200, body: String(decoding: json, as: UTF8.self))
        }
    }
}
