import StoreWire

extension MockStoreError {
    /// A request the App Store Server API refuses: Apple's code, and Apple's words where Apple has them.
    public enum ServerAPIRefusal: Equatable, Sendable {
        case appAccountTokenNotUUID
        case appTransactionIdNotSupported
        case originalTransactionIdNotFound
        case notOriginalTransactionId
        case familyTransactionNotSupported
        case transactionNotConsumable
        case noNotificationURL
        case testNotificationNotFound
        case invalidRevision
        case invalidStartDate
        case invalidEndDate
        case invalidProductIdFilter
        case invalidProductType
        case invalidSort
        case invalidRevoked
        case invalidOwnershipType
        case invalidStatusFilter
        /// Get Transaction History: the start date is after the end date.
        case startDateAfterEndDate
        /// Get Notification History: the end date is not after the start date.
        case endDatePrecedesStartDate
        /// Get Notification History: the start is further back than the history keeps.
        case startDateTooFarInPast(days: Int64)
        case invalidNotificationType
        case notASubtype(NotificationSubtype, of: NotificationType)
        case subtypeWithoutType
        case multipleFilters
        case invalidPaginationToken
        /// Extend a Subscription Renewal Date: an original transaction id that is not a decimal number.
        case invalidOriginalTransactionId(String)
        case familySharedExtensionIneligible
        /// Extend Subscription Renewal Dates for All Active Subscribers: not a subscription of the catalogue.
        case notAnExtendableProduct(String)
        case extensionStatusNotFound(requestIdentifier: String, productId: String)
        /// The subscription's state does not allow an extension.
        case extensionIneligible(ExtensionIneligibility)
        /// The extensions would exceed 250 days in all, as many as Apple allows.
        case extensionLimit
        /// A renewal-date extension body StoreWire's validation refused, with its code and words.
        case renewalExtension(RenewalExtensionRequestError)

        /// Apple's error code for the refusal.
        public var code: StoreErrorCode {
            switch self {
            case .appAccountTokenNotUUID: .invalidAppAccountToken
            case .appTransactionIdNotSupported: .appTransactionIdNotSupported
            case .originalTransactionIdNotFound: .originalTransactionIdNotFound
            case .notOriginalTransactionId: .transactionIdIsNotOriginalTransactionId
            case .familyTransactionNotSupported: .familyTransactionNotSupported
            case .transactionNotConsumable: .invalidTransactionNotConsumable
            case .noNotificationURL: .serverNotificationURLNotFound
            case .testNotificationNotFound: .testNotificationNotFound
            case .invalidRevision: .invalidRequestRevision
            case .invalidStartDate: .invalidStartDate
            case .invalidEndDate: .invalidEndDate
            case .invalidProductIdFilter, .notAnExtendableProduct: .invalidProductId
            case .invalidProductType: .invalidProductType
            case .invalidSort: .invalidSort
            case .invalidRevoked: .invalidRevoked
            case .invalidOwnershipType: .invalidInAppOwnershipType
            case .invalidStatusFilter: .invalidStatus
            case .startDateAfterEndDate, .endDatePrecedesStartDate: .startDateAfterEndDate
            case .startDateTooFarInPast: .startDateTooFarInPast
            case .invalidNotificationType, .notASubtype, .subtypeWithoutType: .invalidNotificationType
            case .multipleFilters: .multipleFiltersSupplied
            case .invalidPaginationToken: .invalidPaginationToken
            case .invalidOriginalTransactionId: .invalidOriginalTransactionId
            case .familySharedExtensionIneligible: .familySharedSubscriptionExtensionIneligible
            case .extensionStatusNotFound: .statusRequestNotFound
            case .extensionIneligible: .subscriptionExtensionIneligible
            case .extensionLimit: .subscriptionMaxExtension
            case .renewalExtension(let error): error.code
            }
        }

        /// The words of the refusal.
        var message: String {
            switch self {
            case .appAccountTokenNotUUID: "Invalid request. The app account token field must be a valid UUID."
            case .appTransactionIdNotSupported:
                "Invalid request. An app transaction ID is not supported by this endpoint."
            case .originalTransactionIdNotFound: "Original transaction id not found."
            case .notOriginalTransactionId:
                "Invalid request. The transaction ID provided is not an original transaction ID."
            case .familyTransactionNotSupported:
                "Invalid request. Family Sharing transactions aren't supported by this endpoint."
            case .transactionNotConsumable: "Invalid request. The transaction is not a consumable in-app purchase."
            case .noNotificationURL:
                "No App Store Server Notifications URL is configured (start mockstore with --notify URL)."
            case .testNotificationNotFound: "Test notification not found."
            case .invalidRevision: "Invalid request revision."
            case .invalidStartDate: "Invalid request start date."
            case .invalidEndDate: "Invalid request end date."
            case .invalidProductIdFilter: "Invalid request product id."
            case .invalidProductType: "Invalid request product type."
            case .invalidSort: "Invalid request sort."
            case .invalidRevoked: "Invalid request revoked."
            case .invalidOwnershipType: "Invalid request in-app ownership type."
            case .invalidStatusFilter: "Invalid request. The status parameter is invalid."
            case .startDateAfterEndDate: "Invalid request. The start date is after the end date."
            case .endDatePrecedesStartDate: "Invalid request. The end date precedes the start date."
            case .startDateTooFarInPast(let days): "Invalid request. The start date is earlier than \(days) days ago."
            case .invalidNotificationType: "Invalid request notification type."
            case .notASubtype(let subtype, let type): "Invalid request. \(subtype) is not a subtype of \(type)."
            case .subtypeWithoutType: "Invalid request. A notificationSubtype needs its notificationType."
            case .multipleFilters: "Invalid request. Give either a transactionId or a notificationType, not both."
            case .invalidPaginationToken: "Invalid request pagination token."
            case .invalidOriginalTransactionId(let id):
                "Invalid original transaction id: \"\(id)\" is not a numeric transaction id."
            case .familySharedExtensionIneligible:
                "A subscription the customer has through Family Sharing is not eligible for an extension."
            case .notAnExtendableProduct(let id):
                "Invalid product id: \"\(id)\" is not an auto-renewable subscription of the catalogue."
            case .extensionStatusNotFound(let requestIdentifier, let productId):
                "No renewal date extension request \"\(requestIdentifier)\" for product \"\(productId)\"."
            case .extensionIneligible(.notActive):
                "The subscription is not eligible for a renewal date extension: it is not active (expired, revoked or "
                    + "in billing retry)."
            case .extensionIneligible(.inFreeOfferPeriod):
                "The subscription is not eligible for a renewal date extension: it is in a free offer period."
            case .extensionIneligible(.extendedTwiceInAYear):
                "The subscription is not eligible for a renewal date extension: it was extended twice in the last 365 "
                    + "days."
            case .extensionLimit:
                "The subscription has had the most renewal date extensions Apple allows: extensions would exceed 250 "
                    + "days in all."
            case .renewalExtension(let error): error.message
            }
        }
    }
}
