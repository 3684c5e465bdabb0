import Foundation
import StoreWire

/// Every endpoint of the App Store Server API the store serves (``StoreWire/ServerAPI``), one call each, with
/// Apple's request and answer types.
extension ServerAPIClient {
    /// Get Transaction Info: one transaction, finished or not, refunded or not.
    public func transactionInfo(_ transactionId: String) async throws(ServerAPIError) -> TransactionInfoResponseBody {
        try await send(ServerAPI.transactionInfo, .init(transactionId: transactionId), body: NoBody())
    }

    /// Get App Transaction Info: the app transaction of the customer who has `transactionId`.
    public func appTransactionInfo(_ transactionId: String) async throws(ServerAPIError)
        -> AppTransactionInfoResponseBody
    {
        try await send(ServerAPI.appTransactionInfo, .init(transactionId: transactionId), body: NoBody())
    }

    /// Set App Account Token: `appAccountToken` on the purchase `originalTransactionId`, or on that subscription's
    /// current renewal transaction and its later renewals (not its past transactions), as Apple documents it.
    public func setAppAccountToken(_ appAccountToken: UUID, originalTransactionId: String)
        async throws(ServerAPIError)
    {
        let body = UpdateAppAccountTokenRequestBody(appAccountToken: appAccountToken.uuidString.lowercased())
        _ = try await send(
            ServerAPI.setAppAccountToken, .init(originalTransactionId: originalTransactionId), body: body)
    }

    /// ``setAppAccountToken(_:originalTransactionId:)`` with the transaction first, as the other calls take it.
    public func setAppAccountToken(_ originalTransactionId: String, _ appAccountToken: UUID)
        async throws(ServerAPIError)
    {
        try await setAppAccountToken(appAccountToken, originalTransactionId: originalTransactionId)
    }

    /// Get Transaction History (v2, or Apple's deprecated v1 with `version: .v1`): a page of the transactions of the
    /// customer who has `transactionId`; `query.revision` gives the next page.
    public func transactionHistory(
        _ transactionId: String, _ query: TransactionHistoryQuery = TransactionHistoryQuery(),
        version: HistoryVersion = .v2
    ) async throws(ServerAPIError) -> HistoryResponseBody {
        let endpoint = version == .v1 ? ServerAPI.historyV1 : ServerAPI.history
        return try await send(endpoint, query.parameters(transactionId: transactionId), body: NoBody())
    }

    /// Get Refund History: a page of the refunded transactions of the customer who has `transactionId`.
    public func refundHistory(_ transactionId: String, revision: String? = nil) async throws(ServerAPIError)
        -> RefundHistoryResponseBody
    {
        try await send(
            ServerAPI.refundHistory, .init(transactionId: transactionId, revision: revision), body: NoBody())
    }

    /// Look Up Order ID (`MOCK` and 8 digits in the mock store: see its test controls' `transactions`).
    public func lookUpOrder(_ orderId: String) async throws(ServerAPIError) -> OrderLookupResponseBody {
        try await send(ServerAPI.lookUpOrder, .init(orderId: orderId), body: NoBody())
    }

    /// Send Consumption Information (v2) with Apple's `ConsumptionRequest`.
    public func sendConsumptionInformation(_ transactionId: String, _ request: ConsumptionRequestBody)
        async throws(ServerAPIError)
    {
        let body: JSONValue
        do {
            body = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(request))
        } catch {
            throw .unreachable(request: "\(ServerAPI.sendConsumption)", why: "its body could not be made: \(error)")
        }
        try await sendConsumptionInformation(transactionId, body)
    }

    /// Send Consumption Information (v2; or v1 with `version: .v1`) with any JSON body, as the endpoint takes it,
    /// so a test can send the fields Apple refuses too.
    public func sendConsumptionInformation(
        _ transactionId: String, _ body: JSONValue, version: ConsumptionVersion = .v2
    ) async throws(ServerAPIError) {
        let endpoint = version == .v1 ? ServerAPI.sendConsumptionV1 : ServerAPI.sendConsumption
        _ = try await send(endpoint, .init(transactionId: transactionId), body: body)
    }

    /// Finishes a transaction from the server, as the app would (mock store only).
    public func finishTransaction(_ transactionId: String) async throws(ServerAPIError) {
        _ = try await send(ServerAPI.finishTransaction, .init(transactionId: transactionId), body: NoBody())
    }

    /// Request a Test Notification (the store needs `notify`).
    public func requestTestNotification() async throws(ServerAPIError) -> SendTestNotificationResponseBody {
        try await send(ServerAPI.requestTestNotification, NoParameters(), body: NoBody())
    }

    /// Get Test Notification Status.
    public func testNotificationStatus(_ testNotificationToken: String) async throws(ServerAPIError)
        -> CheckTestNotificationResponseBody
    {
        try await send(ServerAPI.testNotificationStatus, .init(token: testNotificationToken), body: NoBody())
    }

    /// Get Notification History: a page; `paginationToken` (from the page before) gives the next.
    public func notificationHistory(_ request: NotificationHistoryRequestBody, paginationToken: String? = nil)
        async throws(ServerAPIError) -> NotificationHistoryResponseBody
    {
        try await send(ServerAPI.notificationHistory, .init(paginationToken: paginationToken), body: request)
    }

    /// Get All Subscription Statuses of the customer who has `transactionId` (or whose `appTransactionId` it is),
    /// only those in `statuses` when any are given.
    public func subscriptionStatuses(_ transactionId: String, statuses: [SubscriptionStatus] = [])
        async throws(ServerAPIError) -> StatusResponseBody
    {
        try await send(
            ServerAPI.subscriptionStatuses, .init(transactionId: transactionId, statuses: statuses), body: NoBody())
    }

    /// Extend a Subscription Renewal Date.
    public func extendRenewalDate(_ originalTransactionId: String, _ request: ExtendRenewalDateRequestBody)
        async throws(ServerAPIError) -> ExtendRenewalDateResponseBody
    {
        try await send(ServerAPI.extendRenewalDate, .init(originalTransactionId: originalTransactionId), body: request)
    }

    /// Extend Subscription Renewal Dates for All Active Subscribers.
    public func massExtendRenewalDate(_ request: MassExtendRenewalDateRequestBody) async throws(ServerAPIError)
        -> MassExtendRenewalDateResponseBody
    {
        try await send(ServerAPI.massExtendRenewalDate, NoParameters(), body: request)
    }

    /// Get Status of Subscription Renewal Date Extensions.
    public func massExtensionStatus(productId: String, requestIdentifier: String) async throws(ServerAPIError)
        -> MassExtendRenewalDateStatusResponseBody
    {
        try await send(
            ServerAPI.massExtensionStatus, .init(productId: productId, requestIdentifier: requestIdentifier),
            body: NoBody())
    }

    /// Which Get Transaction History: Apple's v2, or its deprecated v1 (which leaves out finished consumables).
    public enum HistoryVersion: Sendable {
        case v1
        case v2
    }

    /// Which Send Consumption Information: v2 (Apple's current body) or v1.
    public enum ConsumptionVersion: Sendable {
        case v1
        case v2
    }
}
