/// The payload of a signed app transaction, with Apple's field names (`JWSAppTransactionDecodedPayload`, StoreKit's
/// `AppTransaction`): the customer's purchase (download) of the app. Dates are milliseconds since 1970.
public struct AppTransactionPayload: Codable, Sendable, Equatable {
    public var receiptType: AppStoreEnvironment
    /// Left out in the sandbox, as Apple does.
    public var appAppleId: Int64?
    public var bundleId: String
    /// The app version (`CFBundleVersion`).
    public var applicationVersion: String
    /// 0 in the sandbox, as Apple sends it; left out otherwise here.
    public var versionExternalIdentifier: Int64?
    public var receiptCreationDate: Int64
    public var originalPurchaseDate: Int64
    public var originalApplicationVersion: String
    /// Device API only, as in a signed transaction: base64 of SHA-384(nonce + device verification id).
    public var deviceVerification: String?
    public var deviceVerificationNonce: String?
    public var preorderDate: Int64?
    /// The same in every transaction of the customer.
    public var appTransactionId: String
    public var originalPlatform: PurchasePlatform
    public var signedDate: Int64

    public init(
        receiptType: AppStoreEnvironment, appAppleId: Int64?, bundleId: String, applicationVersion: String,
        versionExternalIdentifier: Int64? = nil, receiptCreationDate: Int64, originalPurchaseDate: Int64,
        originalApplicationVersion: String, deviceVerification: String? = nil, deviceVerificationNonce: String? = nil,
        preorderDate: Int64? = nil, appTransactionId: String, originalPlatform: PurchasePlatform = .iOS,
        signedDate: Int64
    ) {
        self.receiptType = receiptType
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.applicationVersion = applicationVersion
        self.versionExternalIdentifier = versionExternalIdentifier
        self.receiptCreationDate = receiptCreationDate
        self.originalPurchaseDate = originalPurchaseDate
        self.originalApplicationVersion = originalApplicationVersion
        self.deviceVerification = deviceVerification
        self.deviceVerificationNonce = deviceVerificationNonce
        self.preorderDate = preorderDate
        self.appTransactionId = appTransactionId
        self.originalPlatform = originalPlatform
        self.signedDate = signedDate
    }

    private enum CodingKeys: String, CodingKey {
        case receiptType, appAppleId, bundleId, applicationVersion, versionExternalIdentifier, receiptCreationDate
        case originalPurchaseDate, originalApplicationVersion, deviceVerification, deviceVerificationNonce
        case preorderDate, appTransactionId, originalPlatform, signedDate
    }

    /// Reads Apple's payload; one without `signedDate` (an app transaction signed before Apple added it) is read as
    /// signed at its `receiptCreationDate`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        receiptType = try container.decode(AppStoreEnvironment.self, forKey: .receiptType)
        appAppleId = try container.decodeIfPresent(Int64.self, forKey: .appAppleId)
        bundleId = try container.decode(String.self, forKey: .bundleId)
        applicationVersion = try container.decode(String.self, forKey: .applicationVersion)
        versionExternalIdentifier = try container.decodeIfPresent(Int64.self, forKey: .versionExternalIdentifier)
        receiptCreationDate = try container.decode(Int64.self, forKey: .receiptCreationDate)
        originalPurchaseDate = try container.decode(Int64.self, forKey: .originalPurchaseDate)
        originalApplicationVersion = try container.decode(String.self, forKey: .originalApplicationVersion)
        deviceVerification = try container.decodeIfPresent(String.self, forKey: .deviceVerification)
        deviceVerificationNonce = try container.decodeIfPresent(String.self, forKey: .deviceVerificationNonce)
        preorderDate = try container.decodeIfPresent(Int64.self, forKey: .preorderDate)
        appTransactionId = try container.decode(String.self, forKey: .appTransactionId)
        originalPlatform = try container.decode(PurchasePlatform.self, forKey: .originalPlatform)
        signedDate = try container.decodeIfPresent(Int64.self, forKey: .signedDate) ?? receiptCreationDate
    }
}

/// `GET /storekit/v1/app-transaction`: StoreKit's `AppTransaction.shared`, as its `jwsRepresentation`.
public struct SignedAppTransactionBody: Codable, Sendable, Equatable {
    public var signedAppTransaction: String
    public init(signedAppTransaction: String) { self.signedAppTransaction = signedAppTransaction }
}

/// `GET /inApps/v1/transactions/appTransactions/{transactionId}` (Get App Transaction Info).
public struct AppTransactionInfoResponseBody: Codable, Sendable, Equatable {
    public var signedAppTransactionInfo: String
    public init(signedAppTransactionInfo: String) { self.signedAppTransactionInfo = signedAppTransactionInfo }
}

/// `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken` (Set App Account Token).
public struct UpdateAppAccountTokenRequestBody: Codable, Sendable, Equatable {
    public var appAccountToken: String
    public init(appAccountToken: String) { self.appAccountToken = appAccountToken }
}
