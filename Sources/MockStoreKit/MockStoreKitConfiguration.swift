import Foundation
internal import Signing

/// Where `MockStoreKit` finds its store (Linux only; Apple's StoreKit has no such type): the mock store's URL, the
/// root certificate its signed data must chain to (as StoreKit verifies against Apple's root), and the customer
/// whose device this is.
///
/// With no call of its own, the first StoreKit call reads the environment: `MOCKSTORE_URL`,
/// `MOCKSTORE_ROOT_CERTIFICATE` (a PEM or DER file) and `MOCKSTORE_CUSTOMER`. ``configure(_:)`` does the same in
/// code, and starts a new "launch" (``Transaction/updates`` then hands out the unfinished transactions again).
public struct MockStoreKitConfiguration: Sendable {
    /// The running mock store, e.g. `http://127.0.0.1:8080`.
    public var url: URL
    /// The DER of the root certificate every JWS must chain to; nil verifies nothing, so every result is
    /// ``VerificationResult/unverified(_:_:)``.
    public var rootCertificate: [UInt8]?
    /// The mock store's customer whose device this is (its `X-Mock-Customer`); nil is the store's default customer.
    public var customer: String?
    /// The device's verification id (`AppStore.deviceVerificationID`), which the store stamps into signed data.
    public var deviceVerificationID: UUID
    /// As Info.plist's `SKIncludeConsumableInAppPurchaseHistory`: ``Transaction/all`` also lists finished consumables.
    public var includesConsumableInAppPurchaseHistory: Bool
    /// How long one request to the store may take, whole, in seconds.
    public var timeout: TimeInterval
    /// How long ``Transaction/updates`` waits between looks at the store when nothing changed, in seconds.
    public var updatesInterval: TimeInterval

    /// The device id when none is given (the mock store's own default).
    public static let defaultDeviceVerificationID = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!

    public init(
        url: URL, rootCertificate: [UInt8]? = nil, customer: String? = nil,
        deviceVerificationID: UUID = MockStoreKitConfiguration.defaultDeviceVerificationID,
        includesConsumableInAppPurchaseHistory: Bool = false, timeout: TimeInterval = 10,
        updatesInterval: TimeInterval = 0.1
    ) {
        self.url = url
        self.rootCertificate = rootCertificate
        self.customer = customer
        self.deviceVerificationID = deviceVerificationID
        self.includesConsumableInAppPurchaseHistory = includesConsumableInAppPurchaseHistory
        self.timeout = timeout
        self.updatesInterval = updatesInterval
    }

    /// The same, with the root certificate as a file holds it (PEM or DER), e.g. what `TestStore.rootCertificate()`
    /// answers; throws when it holds no certificate.
    public init(
        url: URL, rootCertificate: Data, customer: String? = nil,
        deviceVerificationID: UUID = MockStoreKitConfiguration.defaultDeviceVerificationID,
        includesConsumableInAppPurchaseHistory: Bool = false, timeout: TimeInterval = 10,
        updatesInterval: TimeInterval = 0.1
    ) throws(MockStoreKitConfigurationError) {
        self.init(
            url: url,
            rootCertificate: try Self.rootCertificate(Array(rootCertificate), from: "the root certificate given"),
            customer: customer, deviceVerificationID: deviceVerificationID,
            includesConsumableInAppPurchaseHistory: includesConsumableInAppPurchaseHistory, timeout: timeout,
            updatesInterval: updatesInterval)
    }

    /// The configuration the environment gives (`MOCKSTORE_URL`, `MOCKSTORE_ROOT_CERTIFICATE`, `MOCKSTORE_CUSTOMER`,
    /// and `MOCKSTORE_INCLUDE_CONSUMABLE_HISTORY=1`), or why it gives none.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(MockStoreKitConfigurationError) -> MockStoreKitConfiguration
    {
        guard let text = environment["MOCKSTORE_URL"], !text.isEmpty else { throw .noURL }
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme),
            url.host != nil
        else { throw .invalidURL(text) }
        var configuration = MockStoreKitConfiguration(url: url)
        if let path = environment["MOCKSTORE_ROOT_CERTIFICATE"], !path.isEmpty {
            configuration.rootCertificate = try rootCertificate(at: path)
        }
        if let customer = environment["MOCKSTORE_CUSTOMER"], !customer.isEmpty { configuration.customer = customer }
        configuration.includesConsumableInAppPurchaseHistory =
            environment["MOCKSTORE_INCLUDE_CONSUMABLE_HISTORY"] == "1"
        return configuration
    }

    /// The DER of the certificate in the file at `path`, PEM or DER.
    public static func rootCertificate(at path: String) throws(MockStoreKitConfigurationError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadableRoot(path: path) }
        return try rootCertificate(Array(data), from: path)
    }

    /// The DER of the certificate in `bytes` (PEM or DER), read from `place` (for the error's words).
    static func rootCertificate(_ bytes: [UInt8], from place: String) throws(MockStoreKitConfigurationError)
        -> [UInt8]
    {
        do {
            if let text = String(validating: bytes, as: UTF8.self), text.contains("-----BEGIN") {
                return try Certificate(pemRepresentation: text).derRepresentation
            }
            return try Certificate(derRepresentation: bytes).derRepresentation
        } catch {
            throw .notACertificate(path: place)
        }
    }

    /// Makes `configuration` the one every StoreKit call uses from now on: a new launch of the app.
    public static func configure(_ configuration: MockStoreKitConfiguration) {
        MockStoreKitSession.install(MockStoreKitSession(configuration))
    }
}

/// Why `MockStoreKit` has no store to talk to.
public enum MockStoreKitConfigurationError: Error, Equatable, CustomStringConvertible {
    /// Neither ``MockStoreKitConfiguration/configure(_:)`` nor `MOCKSTORE_URL`.
    case noURL
    /// `MOCKSTORE_URL` is not an http or https URL.
    case invalidURL(String)
    /// The root certificate's file cannot be read.
    case unreadableRoot(path: String)
    /// The root certificate's file holds no certificate (PEM or DER).
    case notACertificate(path: String)

    public var description: String {
        switch self {
        case .noURL:
            return "MockStoreKit has no store: set MOCKSTORE_URL to the running mockstore's URL (and "
                + "MOCKSTORE_ROOT_CERTIFICATE to its root certificate), or call MockStoreKitConfiguration.configure"
        case .invalidURL(let text): return "MOCKSTORE_URL \"\(text)\" is not an http or https URL"
        case .unreadableRoot(let path): return "the root certificate \(path) cannot be read"
        case .notACertificate(let path): return "\(path) holds no certificate (PEM or DER)"
        }
    }
}
