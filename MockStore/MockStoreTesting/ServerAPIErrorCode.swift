/// An error code of the App Store Server API, as Apple numbers it (apple/app-store-server-library's `APIError`),
/// and the few the mock store adds (each said so).
public enum ServerAPIErrorCode: Int, Sendable, CaseIterable, Hashable {
    case generalBadRequest = 4_000_000
    case invalidAppIdentifier = 4_000_002
    case invalidRequestRevision = 4_000_005
    case invalidTransactionId = 4_000_006
    case invalidOriginalTransactionId = 4_000_008
    case invalidExtendByDays = 4_000_009
    case invalidExtendReasonCode = 4_000_010
    case invalidRequestIdentifier = 4_000_011
    case startDateTooFarInPast = 4_000_012
    case startDateAfterEndDate = 4_000_013
    case invalidPaginationToken = 4_000_014
    case invalidStartDate = 4_000_015
    case invalidEndDate = 4_000_016
    case invalidNotificationType = 4_000_018
    case multipleFiltersSupplied = 4_000_019
    case invalidSort = 4_000_021
    case invalidProductType = 4_000_022
    case invalidProductId = 4_000_023
    case invalidInAppOwnershipType = 4_000_026
    case invalidEmptyStorefrontCountryCodeList = 4_000_027
    case invalidStorefrontCountryCode = 4_000_028
    case invalidRevoked = 4_000_030
    case invalidStatus = 4_000_031
    case invalidAccountTenure = 4_000_032
    /// Send Consumption Information (v1): `appAccountToken` is neither a UUID nor empty.
    case invalidConsumptionAppAccountToken = 4_000_033
    case invalidConsumptionStatus = 4_000_034
    case invalidCustomerConsented = 4_000_035
    case invalidDeliveryStatus = 4_000_036
    case invalidLifetimeDollarsPurchased = 4_000_037
    case invalidLifetimeDollarsRefunded = 4_000_038
    case invalidPlatform = 4_000_039
    case invalidPlayTime = 4_000_040
    case invalidSampleContentProvided = 4_000_041
    case invalidUserStatus = 4_000_042
    case invalidTransactionNotConsumable = 4_000_043
    case appTransactionIdNotSupported = 4_000_048
    /// Set App Account Token: the token is not a UUID.
    case invalidAppAccountToken = 4_000_183
    case familyTransactionNotSupported = 4_000_185
    case transactionIdIsNotOriginalTransactionId = 4_000_187
    case subscriptionExtensionIneligible = 4_030_004
    case subscriptionMaxExtension = 4_030_005
    case familySharedSubscriptionExtensionIneligible = 4_030_007
    /// No endpoint at this path (mock store only).
    case notFound = 4_040_000
    case originalTransactionIdNotFound = 4_040_005
    case serverNotificationURLNotFound = 4_040_007
    case testNotificationNotFound = 4_040_008
    case statusRequestNotFound = 4_040_009
    case transactionIdNotFound = 4_040_010
    case appTransactionDoesNotExist = 4_040_019
    /// No customer of that name (mock store only).
    case customerNotFound = 4_040_020
    /// The method is not one the path answers (mock store only).
    case methodNotAllowed = 4_050_000
    /// The request did not arrive whole in time (mock store only).
    case requestTimeout = 4_080_000
    /// The request does not fit the transaction's state (mock store only).
    case conflict = 4_090_000
    case payloadTooLarge = 4_130_000
    case generalInternal = 5_000_000
    /// A test control made this call fail (mock store only).
    case simulatedStoreKitError = 5_030_000
}
