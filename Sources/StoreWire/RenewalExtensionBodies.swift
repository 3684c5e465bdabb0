/// Bodies of the App Store Server API's renewal-date extension endpoints, with Apple's field names
/// (`ExtendRenewalDateRequest`, `ExtendRenewalDateResponse`, `MassExtendRenewalDateRequest`,
/// `MassExtendRenewalDateResponse`, `MassExtendRenewalDateStatusResponse`).

/// Apple's `extendReasonCode`: why a renewal date is moved.
public enum ExtendReasonCode: Int, Codable, Sendable, CaseIterable {
    case undeclared = 0
    case customerSatisfaction = 1
    case other = 2
    case serviceIssueOrOutage = 3
}

/// `PUT /inApps/v1/subscriptions/extend/{originalTransactionId}`: Extend a Subscription Renewal Date.
public struct ExtendRenewalDateRequestBody: Codable, Sendable, Equatable {
    /// 1 to 90.
    public var extendByDays: Int
    public var extendReasonCode: ExtendReasonCode
    /// The caller's id for this request: 1 to 128 characters.
    public var requestIdentifier: String

    public init(extendByDays: Int, extendReasonCode: ExtendReasonCode, requestIdentifier: String) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
    }

    /// The request in `body`, checked field by field as Apple checks it.
    ///
    /// - Throws: ``RenewalExtensionRequestError``: 4000000 for a body that is not a JSON object, 4000009 for
    ///   `extendByDays`, 4000010 for `extendReasonCode`, 4000011 for `requestIdentifier`.
    public static func validated(_ body: JSONValue) throws(RenewalExtensionRequestError) -> Self {
        guard case .object = body else { throw .notAnObject }
        return Self(
            extendByDays: try RenewalExtensionRules.days(body["extendByDays"]),
            extendReasonCode: try RenewalExtensionRules.reason(body["extendReasonCode"]),
            requestIdentifier: try RenewalExtensionRules.requestIdentifier(body["requestIdentifier"]))
    }
}

/// The answer to Extend a Subscription Renewal Date.
public struct ExtendRenewalDateResponseBody: Codable, Sendable, Equatable {
    public var originalTransactionId: String
    /// The subscription period that was moved.
    public var webOrderLineItemId: String?
    public var success: Bool
    /// The new `expiresDate` (milliseconds since 1970).
    public var effectiveDate: Int64?

    public init(originalTransactionId: String, webOrderLineItemId: String?, success: Bool, effectiveDate: Int64?) {
        self.originalTransactionId = originalTransactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.success = success
        self.effectiveDate = effectiveDate
    }
}

/// `POST /inApps/v1/subscriptions/extend/mass`: Extend Subscription Renewal Dates for All Active Subscribers.
public struct MassExtendRenewalDateRequestBody: Codable, Sendable, Equatable {
    public var extendByDays: Int
    public var extendReasonCode: ExtendReasonCode
    public var requestIdentifier: String
    /// Only subscribers in these storefronts (ISO 3166-1 alpha-3); `nil`: every storefront.
    public var storefrontCountryCodes: [String]?
    public var productId: String

    public init(
        extendByDays: Int, extendReasonCode: ExtendReasonCode, requestIdentifier: String,
        storefrontCountryCodes: [String]? = nil, productId: String
    ) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
        self.storefrontCountryCodes = storefrontCountryCodes
        self.productId = productId
    }

    /// The request in `body`, checked as Apple checks it; `isStorefront` says whether a code names a storefront.
    ///
    /// - Throws: ``RenewalExtensionRequestError``: as ``ExtendRenewalDateRequestBody/validated(_:)``, and 4000023
    ///   for a missing `productId`, 4000027 for an empty `storefrontCountryCodes`, 4000028 for a code that is not
    ///   a storefront.
    public static func validated(_ body: JSONValue, isStorefront: (String) -> Bool) throws(RenewalExtensionRequestError)
        -> Self
    {
        guard case .object = body else { throw .notAnObject }
        let days = try RenewalExtensionRules.days(body["extendByDays"])
        let reason = try RenewalExtensionRules.reason(body["extendReasonCode"])
        let identifier = try RenewalExtensionRules.requestIdentifier(body["requestIdentifier"])
        guard case .string(let productId) = body["productId"] ?? .null, !productId.isEmpty else {
            throw RenewalExtensionRequestError(
                code: StoreErrorCode.invalidProductId, message: "Invalid request. The product id is invalid.")
        }
        var storefronts: [String]?
        switch body["storefrontCountryCodes"] ?? .null {
        case .null: storefronts = nil
        case .array(let items):
            guard !items.isEmpty else {
                throw RenewalExtensionRequestError(
                    code: StoreErrorCode.invalidEmptyStorefrontCountryCodeList,
                    message: "Invalid request. The storefront country code list is empty.")
            }
            storefronts = try items.map { item throws(RenewalExtensionRequestError) in
                guard case .string(let code) = item, isStorefront(code) else {
                    throw RenewalExtensionRequestError(
                        code: StoreErrorCode.invalidStorefrontCountryCode,
                        message: "Invalid request. A storefront country code is invalid.")
                }
                return code
            }
        default:
            throw RenewalExtensionRequestError(
                code: StoreErrorCode.invalidStorefrontCountryCode,
                message: "Invalid request. storefrontCountryCodes must be a list of storefront country codes.")
        }
        return Self(
            extendByDays: days, extendReasonCode: reason, requestIdentifier: identifier,
            storefrontCountryCodes: storefronts, productId: productId)
    }
}

/// The answer to Extend Subscription Renewal Dates for All Active Subscribers: the request was taken.
public struct MassExtendRenewalDateResponseBody: Codable, Sendable, Equatable {
    public var requestIdentifier: String
    public init(requestIdentifier: String) { self.requestIdentifier = requestIdentifier }
}

/// `GET /inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}`: Get Status of Subscription Renewal
/// Date Extensions.
public struct MassExtendRenewalDateStatusResponseBody: Codable, Sendable, Equatable {
    public var requestIdentifier: String
    public var complete: Bool
    /// When the request completed (milliseconds since 1970); only once it has.
    public var completeDate: Int64?
    public var succeededCount: Int64?
    public var failedCount: Int64?

    public init(
        requestIdentifier: String, complete: Bool, completeDate: Int64?, succeededCount: Int64?, failedCount: Int64?
    ) {
        self.requestIdentifier = requestIdentifier
        self.complete = complete
        self.completeDate = completeDate
        self.succeededCount = succeededCount
        self.failedCount = failedCount
    }
}

/// A renewal-extension request Apple refuses before looking at any subscription: 400 with this code.
public struct RenewalExtensionRequestError: Error, Sendable, Equatable {
    public var code: StoreErrorCode
    public var message: String

    public init(code: StoreErrorCode, message: String) {
        self.code = code
        self.message = message
    }

    static let notAnObject = RenewalExtensionRequestError(
        code: StoreErrorCode.generalBadRequest, message: "Invalid request. The body must be a JSON object.")
}

/// Apple's limits on renewal-date extensions.
public enum RenewalExtensionRules {
    /// `extendByDays`: 1 to 90.
    public static let allowedDays = 1...90
    /// The longest `requestIdentifier`.
    public static let maxRequestIdentifierLength = 128
    /// Extensions one subscription may get within ``windowDays`` days.
    public static let maxExtensionsPerWindow = 2
    /// The window the extension count is taken over: a year.
    public static let windowDays = 365
    /// Days one subscription may be extended by, in all.
    public static let maxTotalDays = 250

    static func days(_ value: JSONValue?) throws(RenewalExtensionRequestError) -> Int {
        guard case .number(let number) = value ?? .null, number == number.rounded(),
            Double(allowedDays.lowerBound) <= number, number <= Double(allowedDays.upperBound)
        else {
            throw RenewalExtensionRequestError(
                code: StoreErrorCode.invalidExtendByDays,
                message: "Invalid request. extendByDays must be a whole number of days from 1 to 90.")
        }
        return Int(number)
    }

    static func reason(_ value: JSONValue?) throws(RenewalExtensionRequestError) -> ExtendReasonCode {
        guard case .number(let number) = value ?? .null, number == number.rounded(), abs(number) < 1_000,
            let reason = ExtendReasonCode(rawValue: Int(number))
        else {
            throw RenewalExtensionRequestError(
                code: StoreErrorCode.invalidExtendReasonCode,
                message: "Invalid request. extendReasonCode must be 0, 1, 2 or 3.")
        }
        return reason
    }

    static func requestIdentifier(_ value: JSONValue?) throws(RenewalExtensionRequestError) -> String {
        guard case .string(let text) = value ?? .null, !text.isEmpty, text.count <= maxRequestIdentifierLength else {
            throw RenewalExtensionRequestError(
                code: StoreErrorCode.invalidRequestIdentifier,
                message: "Invalid request. requestIdentifier must be a string of 1 to 128 characters.")
        }
        return text
    }
}


/// A RENEWAL_EXTENSION SUMMARY notification's `summary` (Apple's `Summary`): how a mass extension went.
public struct RenewalExtensionSummary: Codable, Sendable, Equatable {
    public var requestIdentifier: String
    public var environment: AppStoreEnvironment
    /// Production only.
    public var appAppleId: Int64?
    public var bundleId: String
    public var productId: String
    public var storefrontCountryCodes: [String]?
    public var failedCount: Int64
    public var succeededCount: Int64

    public init(
        requestIdentifier: String, environment: AppStoreEnvironment, appAppleId: Int64?, bundleId: String,
        productId: String,
        storefrontCountryCodes: [String]?, failedCount: Int64, succeededCount: Int64
    ) {
        self.requestIdentifier = requestIdentifier
        self.environment = environment
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.productId = productId
        self.storefrontCountryCodes = storefrontCountryCodes
        self.failedCount = failedCount
        self.succeededCount = succeededCount
    }
}
