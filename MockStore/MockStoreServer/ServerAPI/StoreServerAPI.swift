import Foundation
import MockStoreHTTP
import MockStoreSQLite
import Signing
import StoreWire

/// The App Store Server API subset, at Apple's paths (the router checks the bearer token first).
public struct StoreServerAPI: StorePart {
    let configuration: MockStore.Configuration
    let database: GroupCommit<TransactionStore>
    let signing: StoreSigning
    let notifications: StoreNotifications
    let refunds: StoreRefunds

    /// Transactions a history page carries (Apple: 20).
    public static let historyPageSize = 20

    /// Get Transaction Info: any paid transaction, finished or not, refunded or not.
    public func transactionInfo(id: String) throws(MockStoreError) -> TransactionInfoResponseBody {
        try requireTransactionId(id)
        return try withDatabase { database in
            TransactionInfoResponseBody(signedTransactionInfo: try signing.serverSign(try paid(id, database)))
        }
    }

    /// Get Transaction History (`version` `v1` or `v2`): every paid transaction of the customer `id` names (any of
    /// their transactions, or their `appTransactionId`), filtered, in order of last modification (a finish is not one), 20 a page; `revision` resumes. Version 1
    /// leaves out finished consumables, as Apple's does; version 2 keeps them.
    public func history(_ parameters: TransactionHistoryParameters, version: ServerAPIVersion = .v2)
        throws(MockStoreError)
        -> HistoryResponseBody
    {
        let id = parameters.transactionId
        try requireTransactionId(id)
        let request = try HistoryQuery(parameters)
        return try withDatabase { database in
            try actForCustomer(ofAny: id, database)
            let sequences = try database.historySequences()
            func key(_ transaction: StoredTransaction) -> Int64 {
                sequences[transaction.id] ?? transaction.changeSequence
            }
            var matching = try database.allTransactions().filter {
                $0.status == .purchased && request.matches($0)
                    && !(version == .v1 && $0.isFinished && $0.productType == .consumable)
            }
            matching.sort { request.ascending ? key($0) < key($1) : key($0) > key($1) }
            if let revision = request.revision {
                matching = matching.filter { request.ascending ? key($0) > revision : key($0) < revision }
            }
            let page = Array(matching.prefix(Self.historyPageSize))
            let highWater = try database.changeSequenceHighWater()
            let last = page.last.map(key) ?? (request.ascending ? max(highWater, request.revision ?? 0) : 0)
            return HistoryResponseBody(
                revision: HistoryQuery.revisionToken(last),
                hasMore: matching.count > page.count, bundleId: configuration.bundleId,
                appAppleId: configuration.appAppleIdInAnswers, environment: configuration.environment,
                signedTransactions: try page.map { try signing.serverSign($0) })
        }
    }

    /// Get Refund History: the refunded transactions of the customer `id` names (any of their transactions, or their
    /// `appTransactionId`), oldest refund first, 20 a page.
    public func refundHistory(id: String, revision: String?) throws(MockStoreError) -> RefundHistoryResponseBody {
        try requireTransactionId(id)
        let after = try revision.map { text throws(MockStoreError) -> (Int64, Int64) in
            guard let key = HistoryQuery.refundKey(text) else {
                throw .serverAPI(.invalidRevision)
            }
            return key
        }
        return try withDatabase { database in
            try actForCustomer(ofAny: id, database)
            var refunded = try database.allTransactions().filter { $0.status == .purchased && $0.revocationDate != nil }
            refunded.sort { ($0.revocationDate ?? 0, $0.serial) < ($1.revocationDate ?? 0, $1.serial) }
            if let after {
                refunded = refunded.filter { ($0.revocationDate ?? 0, $0.serial) > after }
            }
            let page = Array(refunded.prefix(Self.historyPageSize))
            let key = page.last.map { ($0.revocationDate ?? 0, $0.serial) } ?? after ?? (0, 0)
            return RefundHistoryResponseBody(
                signedTransactions: try page.map { try signing.serverSign($0) },
                revision: HistoryQuery.refundToken(key),
                hasMore: refunded.count > page.count)
        }
    }

    /// Look Up Order ID: valid with the order's transactions, or invalid for an order the store does not know.
    public func lookUpOrder(id orderId: String) throws(MockStoreError) -> OrderLookupResponseBody {
        let transactions = try withDatabase { try $0.transactions(orderId: orderId) }
        return OrderLookupResponseBody(
            status: transactions.isEmpty ? .invalid : .valid,
            signedTransactions: try withDatabase { _ in
                try transactions.map { try signing.serverSign($0) }
            })
    }

    /// Send Consumption Information (`v1`: the numeric fields of `ConsumptionRequestV1`; `v2`: `ConsumptionRequest`),
    /// checked as Apple checks it and recorded for the `consumption` test control.
    public func sendConsumption(id: String, version: ServerAPIVersion, body: [UInt8]) throws(MockStoreError) {
        try requireTransactionId(id)
        let request: JSONValue
        do {
            request = try JSONDecoder().decode(JSONValue.self, from: Data(body))
        } catch {
            throw .invalid(.malformedJSON)
        }
        guard case .object = request else { throw .invalid(.bodyNotAnObject) }
        try ConsumptionValidator.validate(request, version: version)
        let decision = try StoreRefunds.refundDecision(request, version: version)
        let now = configuration.clock.now().millisecondsSince1970
        let decided = try withDatabase { database in
            let transaction = try paid(id, database)
            // Apple: V1 is for consumables and auto-renewable subscriptions; V2 takes any product type.
            let v1Types: [ProductType] = [.consumable, .autoRenewableSubscription]
            guard version != .v1 || v1Types.contains(transaction.productType) else {
                throw MockStoreError.serverAPI(.transactionNotConsumable)
            }
            try database.recordConsumption(
                transactionId: id, apiVersion: version.rawValue, receivedAt: now,
                body: String(decoding: try HTTPResponse.encode(request), as: UTF8.self))
            return try refunds.decideRefund(id, decision, database)
        }
        if decided { notifications.due.ring() }
    }

    /// Request a Test Notification: a TEST notification is made and sent; its token finds it again.
    ///
    /// - Throws: ``MockStoreError`` 4040007 when the store has no `--notify` URL.
    public func requestTestNotification() throws(MockStoreError) -> SendTestNotificationResponseBody {
        guard configuration.notificationURL != nil else {
            throw .serverAPI(.noNotificationURL)
        }
        let token = try withDatabase { database in
            let token = UUID().uuidString.lowercased() + "_" + String(configuration.clock.now().millisecondsSince1970)
            try notifications.enqueueNotification(.test, testToken: token, database)
            return token
        }
        notifications.due.ring()
        return SendTestNotificationResponseBody(testNotificationToken: token)
    }

    /// Get Test Notification Status: the payload and every attempt so far.
    public func testNotificationStatus(token: String) throws(MockStoreError) -> CheckTestNotificationResponseBody {
        guard let notification = try withDatabase({ try $0.notification(testToken: token) }) else {
            throw .serverAPI(.testNotificationNotFound)
        }
        return CheckTestNotificationResponseBody(
            signedPayload: notification.signedPayload,
            sendAttempts: notification.attempts.map {
                SendAttemptItem(attemptDate: $0.date, sendAttemptResult: $0.result)
            })
    }
}
