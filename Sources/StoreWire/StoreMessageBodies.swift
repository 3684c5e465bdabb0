/// `GET /storekit/v1/messages`: StoreKit's messages waiting for the app (`Message.messages`), e.g. `billingIssue`.
public struct StoreMessagesBody: Codable, Sendable, Equatable {
    public var messages: [StoreMessage]
    public init(messages: [StoreMessage]) { self.messages = messages }
}

/// One StoreKit message: its `Message.Reason` (`billingIssue`, `priceIncreaseConsent`) and the subscription.
public struct StoreMessage: Codable, Sendable, Equatable {
    public var reason: MessageReason
    public var originalTransactionId: String
    public var productId: String

    public init(reason: MessageReason, originalTransactionId: String, productId: String) {
        self.reason = reason
        self.originalTransactionId = originalTransactionId
        self.productId = productId
    }
}
