/// The body of Send Consumption Information, version 2 (`PUT /inApps/v2/transactions/consumption/{transactionId}`):
/// Apple's `ConsumptionRequest`, with Apple's field names. The endpoint itself takes any JSON (``JSONValue``), so
/// that a client can also send what Apple refuses; this is the body a server sends.
public struct ConsumptionRequestBody: Codable, Sendable, Equatable {
    /// Whether the customer consented to sharing consumption data (Apple requires `true`).
    public var customerConsented: Bool
    /// Whether the app gave a free sample or trial before the purchase.
    public var sampleContentProvided: Bool
    /// Whether the purchase reached the customer.
    public var deliveryStatus: DeliveryStatus
    /// How much of the purchase the customer used, in milliunits (0 to 100000); nil: not sent.
    public var consumptionPercentage: Int?
    /// What the app would like Apple to decide on the refund; nil: not sent.
    public var refundPreference: RefundPreference?

    public init(
        customerConsented: Bool, sampleContentProvided: Bool, deliveryStatus: DeliveryStatus,
        consumptionPercentage: Int? = nil, refundPreference: RefundPreference? = nil
    ) {
        self.customerConsented = customerConsented
        self.sampleContentProvided = sampleContentProvided
        self.deliveryStatus = deliveryStatus
        self.consumptionPercentage = consumptionPercentage
        self.refundPreference = refundPreference
    }
}
