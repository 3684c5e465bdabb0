/// The error codes of the store's `{"errorCode", "errorMessage"}` answers, shared by the mock store and its clients:
/// Apple's where Apple has one (its App Store Server Library's `APIError`), the mock store's own beside them.
///
/// Decodes any number: a code added later is ``unrecognized(_:)``, kept as sent.
public enum StoreErrorCode: WireIntEnum {
    /// `4000000`.
    case generalBadRequest
    /// `4000002`.
    case invalidAppIdentifier
    /// `4000005`.
    case invalidRequestRevision
    /// `4000006`.
    case invalidTransactionId
    /// Extend a Subscription Renewal Date: the original transaction id is not numeric. `4000008`.
    case invalidOriginalTransactionId
    /// `4000009`.
    case invalidExtendByDays
    /// `4000010`.
    case invalidExtendReasonCode
    /// `4000011`.
    case invalidRequestIdentifier
    /// Get Notification History: `startDate` is further back than the history keeps. `4000012`.
    case startDateTooFarInPast
    /// `startDate` is not before `endDate`. `4000013`.
    case startDateAfterEndDate
    /// `4000014`.
    case invalidPaginationToken
    /// `4000015`.
    case invalidStartDate
    /// `4000016`.
    case invalidEndDate
    /// Get Notification History: an unknown `notificationType`, or a `notificationSubtype` that does not go with it. `4000018`.
    case invalidNotificationType
    /// Get Notification History: both `transactionId` and `notificationType`. `4000019`.
    case multipleFiltersSupplied
    /// `4000021`.
    case invalidSort
    /// `4000022`.
    case invalidProductType
    /// `4000023`.
    case invalidProductId
    /// `4000026`.
    case invalidInAppOwnershipType
    /// A mass extension's `storefrontCountryCodes` is an empty list. `4000027`.
    case invalidEmptyStorefrontCountryCodeList
    /// `4000028`.
    case invalidStorefrontCountryCode
    /// `4000030`.
    case invalidRevoked
    /// Get All Subscription Statuses: a `status` query item that is not 1 to 5. `4000031`.
    case invalidStatus
    /// `4000032`.
    case invalidAccountTenure
    /// Send Consumption Information (v1): `appAccountToken` is neither a UUID nor empty. `4000033`.
    case invalidConsumptionAppAccountToken
    /// `4000034`.
    case invalidConsumptionStatus
    /// `4000035`.
    case invalidCustomerConsented
    /// `4000036`.
    case invalidDeliveryStatus
    /// `4000037`.
    case invalidLifetimeDollarsPurchased
    /// `4000038`.
    case invalidLifetimeDollarsRefunded
    /// `4000039`.
    case invalidPlatform
    /// `4000040`.
    case invalidPlayTime
    /// `4000041`.
    case invalidSampleContentProvided
    /// `4000042`.
    case invalidUserStatus
    /// `4000043`.
    case invalidTransactionNotConsumable
    /// Set App Account Token: an `appTransactionId` was given (`AppTransactionIdNotSupportedError`). `4000048`.
    case appTransactionIdNotSupported
    /// The `appAccountToken` is not a UUID. `4000183`.
    case invalidAppAccountToken
    /// Set App Account Token: the transaction came through Family Sharing. `4000185`.
    case familyTransactionNotSupported
    /// Set App Account Token: the id is not an original transaction id. `4000187`.
    case transactionIdIsNotOriginalTransactionId
    /// The subscription's state does not allow an extension (expired, in billing retry, in a free offer period…). `4030004`.
    case subscriptionExtensionIneligible
    /// The subscription has had as many extensions as Apple allows. `4030005`.
    case subscriptionMaxExtension
    /// The customer has the subscription through Family Sharing. `4030007`.
    case familySharedSubscriptionExtensionIneligible
    /// No endpoint at this path (mock store only). `4040000`.
    case notFound
    /// `4040005`.
    case originalTransactionIdNotFound
    /// No `--notify` URL: the store has nowhere to send notifications. `4040007`.
    case serverNotificationURLNotFound
    /// `4040008`.
    case testNotificationNotFound
    /// Get Status of Subscription Renewal Date Extensions: no such request for that product. `4040009`.
    case statusRequestNotFound
    /// `4040010`.
    case transactionIdNotFound
    /// Get App Transaction Info: the customer has no app transaction. `4040019`.
    case appTransactionDoesNotExist
    /// No customer of that name (`X-Mock-Customer`, `--customer`; mock store only). `4040020`.
    case customerNotFound
    /// `4050000`.
    case methodNotAllowed
    /// A request did not arrive whole within `--request-timeout` (mock store only). `4080000`.
    case requestTimeout
    /// A test control that does not fit the transaction's state, e.g. approving a purchase that is not pending
    /// (mock store only). `4090000`.
    case conflict
    /// `4130000`.
    case payloadTooLarge
    /// `5000000`.
    case generalInternal
    /// A test control made this call fail (mock store only); `errorMessage` names the StoreKit error. `5030000`.
    case simulatedStoreKitError
    /// A code none of the cases above has, as sent.
    case unrecognized(Int)

    public static let knownCases: [Self] = [
        .generalBadRequest, .invalidAppIdentifier, .invalidRequestRevision, .invalidTransactionId,
        .invalidOriginalTransactionId, .invalidExtendByDays, .invalidExtendReasonCode, .invalidRequestIdentifier,
        .startDateTooFarInPast, .startDateAfterEndDate, .invalidPaginationToken, .invalidStartDate, .invalidEndDate,
        .invalidNotificationType, .multipleFiltersSupplied, .invalidSort, .invalidProductType, .invalidProductId,
        .invalidInAppOwnershipType, .invalidEmptyStorefrontCountryCodeList, .invalidStorefrontCountryCode,
        .invalidRevoked, .invalidStatus, .invalidAccountTenure, .invalidConsumptionAppAccountToken,
        .invalidConsumptionStatus, .invalidCustomerConsented, .invalidDeliveryStatus, .invalidLifetimeDollarsPurchased,
        .invalidLifetimeDollarsRefunded, .invalidPlatform, .invalidPlayTime, .invalidSampleContentProvided,
        .invalidUserStatus, .invalidTransactionNotConsumable, .appTransactionIdNotSupported, .invalidAppAccountToken,
        .familyTransactionNotSupported, .transactionIdIsNotOriginalTransactionId, .subscriptionExtensionIneligible,
        .subscriptionMaxExtension, .familySharedSubscriptionExtensionIneligible, .notFound,
        .originalTransactionIdNotFound, .serverNotificationURLNotFound, .testNotificationNotFound,
        .statusRequestNotFound, .transactionIdNotFound, .appTransactionDoesNotExist, .customerNotFound,
        .methodNotAllowed, .requestTimeout, .conflict, .payloadTooLarge, .generalInternal, .simulatedStoreKitError,
    ]

    public var rawValue: Int {
        switch self {
        case .generalBadRequest: 4_000_000
        case .invalidAppIdentifier: 4_000_002
        case .invalidRequestRevision: 4_000_005
        case .invalidTransactionId: 4_000_006
        case .invalidOriginalTransactionId: 4_000_008
        case .invalidExtendByDays: 4_000_009
        case .invalidExtendReasonCode: 4_000_010
        case .invalidRequestIdentifier: 4_000_011
        case .startDateTooFarInPast: 4_000_012
        case .startDateAfterEndDate: 4_000_013
        case .invalidPaginationToken: 4_000_014
        case .invalidStartDate: 4_000_015
        case .invalidEndDate: 4_000_016
        case .invalidNotificationType: 4_000_018
        case .multipleFiltersSupplied: 4_000_019
        case .invalidSort: 4_000_021
        case .invalidProductType: 4_000_022
        case .invalidProductId: 4_000_023
        case .invalidInAppOwnershipType: 4_000_026
        case .invalidEmptyStorefrontCountryCodeList: 4_000_027
        case .invalidStorefrontCountryCode: 4_000_028
        case .invalidRevoked: 4_000_030
        case .invalidStatus: 4_000_031
        case .invalidAccountTenure: 4_000_032
        case .invalidConsumptionAppAccountToken: 4_000_033
        case .invalidConsumptionStatus: 4_000_034
        case .invalidCustomerConsented: 4_000_035
        case .invalidDeliveryStatus: 4_000_036
        case .invalidLifetimeDollarsPurchased: 4_000_037
        case .invalidLifetimeDollarsRefunded: 4_000_038
        case .invalidPlatform: 4_000_039
        case .invalidPlayTime: 4_000_040
        case .invalidSampleContentProvided: 4_000_041
        case .invalidUserStatus: 4_000_042
        case .invalidTransactionNotConsumable: 4_000_043
        case .appTransactionIdNotSupported: 4_000_048
        case .invalidAppAccountToken: 4_000_183
        case .familyTransactionNotSupported: 4_000_185
        case .transactionIdIsNotOriginalTransactionId: 4_000_187
        case .subscriptionExtensionIneligible: 4_030_004
        case .subscriptionMaxExtension: 4_030_005
        case .familySharedSubscriptionExtensionIneligible: 4_030_007
        case .notFound: 4_040_000
        case .originalTransactionIdNotFound: 4_040_005
        case .serverNotificationURLNotFound: 4_040_007
        case .testNotificationNotFound: 4_040_008
        case .statusRequestNotFound: 4_040_009
        case .transactionIdNotFound: 4_040_010
        case .appTransactionDoesNotExist: 4_040_019
        case .customerNotFound: 4_040_020
        case .methodNotAllowed: 4_050_000
        case .requestTimeout: 4_080_000
        case .conflict: 4_090_000
        case .payloadTooLarge: 4_130_000
        case .generalInternal: 5_000_000
        case .simulatedStoreKitError: 5_030_000
        case .unrecognized(let value): value
        }
    }

    /// The case's name, as Apple's `APIError` spells it in Swift: `transactionIdNotFound`; the number for an
    /// unrecognized code.
    public var name: String {
        switch self {
        case .generalBadRequest: "generalBadRequest"
        case .invalidAppIdentifier: "invalidAppIdentifier"
        case .invalidRequestRevision: "invalidRequestRevision"
        case .invalidTransactionId: "invalidTransactionId"
        case .invalidOriginalTransactionId: "invalidOriginalTransactionId"
        case .invalidExtendByDays: "invalidExtendByDays"
        case .invalidExtendReasonCode: "invalidExtendReasonCode"
        case .invalidRequestIdentifier: "invalidRequestIdentifier"
        case .startDateTooFarInPast: "startDateTooFarInPast"
        case .startDateAfterEndDate: "startDateAfterEndDate"
        case .invalidPaginationToken: "invalidPaginationToken"
        case .invalidStartDate: "invalidStartDate"
        case .invalidEndDate: "invalidEndDate"
        case .invalidNotificationType: "invalidNotificationType"
        case .multipleFiltersSupplied: "multipleFiltersSupplied"
        case .invalidSort: "invalidSort"
        case .invalidProductType: "invalidProductType"
        case .invalidProductId: "invalidProductId"
        case .invalidInAppOwnershipType: "invalidInAppOwnershipType"
        case .invalidEmptyStorefrontCountryCodeList: "invalidEmptyStorefrontCountryCodeList"
        case .invalidStorefrontCountryCode: "invalidStorefrontCountryCode"
        case .invalidRevoked: "invalidRevoked"
        case .invalidStatus: "invalidStatus"
        case .invalidAccountTenure: "invalidAccountTenure"
        case .invalidConsumptionAppAccountToken: "invalidConsumptionAppAccountToken"
        case .invalidConsumptionStatus: "invalidConsumptionStatus"
        case .invalidCustomerConsented: "invalidCustomerConsented"
        case .invalidDeliveryStatus: "invalidDeliveryStatus"
        case .invalidLifetimeDollarsPurchased: "invalidLifetimeDollarsPurchased"
        case .invalidLifetimeDollarsRefunded: "invalidLifetimeDollarsRefunded"
        case .invalidPlatform: "invalidPlatform"
        case .invalidPlayTime: "invalidPlayTime"
        case .invalidSampleContentProvided: "invalidSampleContentProvided"
        case .invalidUserStatus: "invalidUserStatus"
        case .invalidTransactionNotConsumable: "invalidTransactionNotConsumable"
        case .appTransactionIdNotSupported: "appTransactionIdNotSupported"
        case .invalidAppAccountToken: "invalidAppAccountToken"
        case .familyTransactionNotSupported: "familyTransactionNotSupported"
        case .transactionIdIsNotOriginalTransactionId: "transactionIdIsNotOriginalTransactionId"
        case .subscriptionExtensionIneligible: "subscriptionExtensionIneligible"
        case .subscriptionMaxExtension: "subscriptionMaxExtension"
        case .familySharedSubscriptionExtensionIneligible: "familySharedSubscriptionExtensionIneligible"
        case .notFound: "notFound"
        case .originalTransactionIdNotFound: "originalTransactionIdNotFound"
        case .serverNotificationURLNotFound: "serverNotificationURLNotFound"
        case .testNotificationNotFound: "testNotificationNotFound"
        case .statusRequestNotFound: "statusRequestNotFound"
        case .transactionIdNotFound: "transactionIdNotFound"
        case .appTransactionDoesNotExist: "appTransactionDoesNotExist"
        case .customerNotFound: "customerNotFound"
        case .methodNotAllowed: "methodNotAllowed"
        case .requestTimeout: "requestTimeout"
        case .conflict: "conflict"
        case .payloadTooLarge: "payloadTooLarge"
        case .generalInternal: "generalInternal"
        case .simulatedStoreKitError: "simulatedStoreKitError"
        case .unrecognized(let value): String(value)
        }
    }
}
