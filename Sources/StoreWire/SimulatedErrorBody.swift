/// The body of a simulated StoreKit failure: Apple's `errorCode`/`errorMessage`, plus the StoreKit error.
public struct SimulatedErrorBody: Codable, Sendable, Equatable {
    public var errorCode: StoreErrorCode
    public var errorMessage: String
    /// The API that failed, e.g. `purchase`.
    public var api: StoreKitAPI
    /// e.g. `Product.PurchaseError.purchaseNotAllowed`.
    public var storeKitError: StoreKitErrorName
    /// The legacy `SKError.Code` raw value that matches, when there is one.
    public var skErrorCode: Int?

    public init(
        errorCode: StoreErrorCode, errorMessage: String, api: StoreKitAPI, storeKitError: StoreKitErrorName, skErrorCode: Int?
    ) {
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.api = api
        self.storeKitError = storeKitError
        self.skErrorCode = skErrorCode
    }
}
