import Foundation
internal import StoreWire
import Synchronization

/// StoreKit 2's `AppTransaction` (https://developer.apple.com/documentation/storekit/apptransaction): the customer's
/// purchase (download) of the app, as the store signed it (`GET /storekit/v1/app-transaction`).
public struct AppTransaction: Sendable, Hashable, CustomDebugStringConvertible {
    /// The app's App Store id (`appAppleId`); nil in the sandbox, which leaves it out, as Apple's does.
    public let appID: UInt64?
    /// The app version the app transaction is for (`applicationVersion`, `CFBundleVersion`).
    public let appVersion: String
    /// The App Store's id of that version (`versionExternalIdentifier`): 0 in the sandbox, as Apple's.
    public let appVersionID: UInt64?
    public let bundleID: String
    /// The SHA-384 of ``deviceVerificationNonce`` and this device's `AppStore.deviceVerificationID`.
    public let deviceVerification: Data
    public let deviceVerificationNonce: UUID
    /// The server environment (`receiptType`).
    public let environment: AppStore.Environment
    /// The app version the customer first obtained (`originalApplicationVersion`).
    public let originalAppVersion: String
    public let originalPurchaseDate: Date
    public let preorderDate: Date?
    /// When the store signed it (`signedDate`; `receiptCreationDate` for a payload without one).
    public let signedDate: Date
    /// The customer's app transaction id: the same as `appTransactionId` in every transaction of the customer.
    public let appTransactionID: String
    /// The platform the customer first obtained the app on.
    public let originalPlatform: AppStore.Platform
    /// The payload as the store signed it, JSON.
    public let jsonRepresentation: Data
    let jws: String

    /// A nonce for a payload that carries none (a stamp is then not checked: ``deviceVerification`` is empty).
    private static let noNonce = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    init(_ payload: AppTransactionPayload, json: Data, jws: String) {
        appID = payload.appAppleId.flatMap { UInt64(exactly: $0) }
        appVersion = payload.applicationVersion
        appVersionID = payload.versionExternalIdentifier.flatMap { UInt64(exactly: $0) }
        bundleID = payload.bundleId
        deviceVerification = payload.deviceVerification.flatMap { Data(base64Encoded: $0) } ?? Data()
        deviceVerificationNonce = payload.deviceVerificationNonce.flatMap(UUID.init(uuidString:)) ?? Self.noNonce
        environment = AppStore.Environment(rawValue: payload.receiptType.rawValue)
        originalAppVersion = payload.originalApplicationVersion
        originalPurchaseDate = Self.date(payload.originalPurchaseDate)
        preorderDate = payload.preorderDate.map(Self.date)
        signedDate = Self.date(payload.signedDate)
        appTransactionID = payload.appTransactionId
        originalPlatform = AppStore.Platform(rawValue: payload.originalPlatform.rawValue)
        jsonRepresentation = json
        self.jws = jws
    }

    /// The signed payload, as JSON (as a transaction's and renewal info's are).
    public var debugDescription: String { String(decoding: jsonRepresentation, as: UTF8.self) }

    /// The app transaction, verified as transactions are (its chain to the configured root, its signature, its
    /// device stamp): fetched from the store the first time, then the one this launch keeps, as StoreKit keeps it
    /// up to date itself.
    ///
    /// - Throws: `StoreKitError.networkError` when the store cannot be reached; `StoreKitError.unknown` when the
    ///   store has no app transaction for the customer (its `appTransactionDoesNotExist`). StoreKit documents only
    ///   that this throws when the app transaction is not available, and has no error of its own for that:
    ///   `notEntitled` is about the app's entitlement to an API, `notAvailableInStorefront` about a product, so the
    ///   catch-all `unknown` is what stands for it. `StoreKitError.systemError` for an answer that is not an app
    ///   transaction.
    public static var shared: VerificationResult<AppTransaction> {
        get async throws {
            let session = try MockStoreKitSession.shared()
            if let kept = session.keptAppTransaction.value { return kept }
            return try await fetch(session)
        }
    }

    /// Fetches the app transaction from the store again (StoreKit asks the customer to sign in first), verified as
    /// ``shared`` is, and keeps it for ``shared``. Throws as ``shared`` does.
    public static func refresh() async throws -> VerificationResult<AppTransaction> {
        try await fetch(try MockStoreKitSession.shared())
    }

    private static func fetch(_ session: MockStoreKitSession) async throws(StoreKitError)
        -> VerificationResult<AppTransaction>
    {
        let jws = try await session.client.appTransaction()
        guard let result = session.appTransaction(jws) else {
            throw .systemError(
                StoreProblem(description: "the store's answer holds no app transaction that can be read"))
        }
        session.keptAppTransaction.keep(result)
        return result
    }

    private static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }
}

extension AppTransaction: SignedByStore {
    var signedDateValue: Date { signedDate }
    var deviceStamp: (verification: Data, nonce: UUID)? {
        deviceVerification.isEmpty ? nil : (deviceVerification, deviceVerificationNonce)
    }
}

extension MockStoreKitSession {
    /// An app transaction's JWS verified, or nil when its payload is not an app transaction.
    func appTransaction(_ jws: String) -> VerificationResult<AppTransaction>? {
        verify(jws) { data, jws in
            AppTransaction(try JSONDecoder().decode(AppTransactionPayload.self, from: data), json: data, jws: jws)
        }
    }
}

/// The app transaction a launch fetched last, which ``AppTransaction/shared`` hands out again.
final class KeptAppTransaction: Sendable {
    private let kept = Mutex<VerificationResult<AppTransaction>?>(nil)

    var value: VerificationResult<AppTransaction>? { kept.withLock { $0 } }

    func keep(_ result: VerificationResult<AppTransaction>) {
        kept.withLock { $0 = result }
    }
}
