import Foundation
internal import Signing
internal import StoreTransport
internal import StoreWire
import Synchronization

/// One launch of the app against one store (Linux only; Apple's StoreKit has no such type): the device's client, the
/// root its signed data must chain to, and whether ``Transaction/updates`` has handed out the launch's unfinished
/// transactions yet.
///
/// ``MockStoreKitConfiguration/configure(_:)`` makes one the process's; ``run(_:)`` makes one the store of every
/// StoreKit call in a piece of work (and the tasks it starts), so tests in one process each talk to a store of their
/// own, side by side.
public final class MockStoreKitSession: Sendable {
    let configuration: MockStoreKitConfiguration
    let client: DeviceClient
    private let root: Certificate?
    /// Chains verified before: the store signs everything with one, so each is checked once.
    private let chains = VerifiedChains()
    /// Set once the first ``Transaction/updates`` iterator has taken the unfinished transactions of this launch.
    private let launchDelivered = Mutex(false)
    /// The app transaction this launch fetched last (``AppTransaction/shared`` hands it out again).
    let keptAppTransaction = KeptAppTransaction()

    private static let current = Mutex<MockStoreKitSession?>(nil)
    @TaskLocal private static var scoped: MockStoreKitSession?

    /// A new launch of the app against the store `configuration` names.
    public init(_ configuration: MockStoreKitConfiguration) {
        self.configuration = configuration
        client = DeviceClient(configuration)
        root = configuration.rootCertificate.flatMap { try? Certificate(derRepresentation: $0) }
    }

    static func install(_ session: MockStoreKitSession) {
        current.withLock { $0 = session }
    }

    /// Runs `operation` with this launch's store for every StoreKit call in it, and in the tasks it starts (not
    /// detached ones), whatever the process is configured with. It runs where it is called (on the main actor from
    /// `@MainActor` code), so its closure need not be `Sendable`.
    public func run<Value>(
        isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> Value
    ) async rethrows -> Value {
        try await Self.$scoped.withValue(self, operation: operation, isolation: isolation)
    }

    /// The session a call uses: the one ``run(_:)`` gave, else the configured one, else one from the environment.
    static func shared() throws(StoreKitError) -> MockStoreKitSession {
        if let scoped { return scoped }
        let made: Result<MockStoreKitSession, MockStoreKitConfigurationError> = current.withLock { current in
            if let current { return .success(current) }
            do throws(MockStoreKitConfigurationError) {
                let session = MockStoreKitSession(try MockStoreKitConfiguration.fromEnvironment())
                current = session
                return .success(session)
            } catch {
                return .failure(error)
            }
        }
        switch made {
        case .success(let session): return session
        case .failure(let error): throw .systemError(error)
        }
    }

    /// Whether this call is the launch's first look at the updates (it then takes the unfinished transactions).
    func takeLaunch() -> Bool {
        launchDelivered.withLock { delivered in
            defer { delivered = true }
            return !delivered
        }
    }

    /// `jws` checked as StoreKit checks what the App Store signs: its chain to the configured root (at its
    /// `signedDate`), its signature, and its payload decoded by `decode` (given the payload and the JWS). Nil when
    /// the payload cannot be decoded at all.
    func verify<SignedType: SignedByStore>(_ jws: String, decode: (Data, String) throws -> SignedType)
        -> VerificationResult<SignedType>?
    {
        guard let parsed = try? CompactJWS.parse(jws) else {
            // Not a JWS that can be read: its payload, when there is one to decode, is handed over unverified.
            let parts = Array(jws.utf8).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            guard parts.count == 3, let payload = Base64URL.decode(String(decoding: parts[1], as: UTF8.self)),
                let value = try? decode(Data(payload), jws)
            else { return nil }
            return .unverified(value, .invalidEncoding)
        }
        guard let value = try? decode(Data(parsed.payload), jws) else { return nil }
        guard let root, parsed.header.alg == "ES256", let chain = parsed.header.x5c, chain.count == 3 else {
            return .unverified(value, .invalidCertificateChain)
        }
        let leaf: LeafKey
        switch chains.leafKey(chain, root: root, at: value.signedDateValue) {
        case .success(let key): leaf = key
        case .failure(.chain): return .unverified(value, .invalidCertificateChain)
        case .failure(.encoding): return .unverified(value, .invalidEncoding)
        }
        // ES256 (checked above): a raw `r || s` of 64 bytes over the signing input.
        guard leaf.isValidSignature(parsed.signature, for: parsed.signingInput) else {
            return .unverified(value, .invalidSignature)
        }
        if let stamp = value.deviceStamp, !isThisDevice(stamp) { return .unverified(value, .invalidDeviceVerification) }
        return .verified(value)
    }

    /// Whether `stamp` was made for this device, as Apple documents it: the SHA-384 of the nonce's lowercased string
    /// followed by the device's verification id, lowercased.
    private func isThisDevice(_ stamp: (verification: Data, nonce: UUID)) -> Bool {
        let text = stamp.nonce.uuidString.lowercased() + configuration.deviceVerificationID.uuidString.lowercased()
        return ConstantTime.equals(SHA384.hash(Array(text.utf8)), Array(stamp.verification))
    }

    /// A transaction's JWS verified, or nil when its payload is not a transaction.
    func transaction(_ jws: String) -> VerificationResult<Transaction>? {
        verify(jws) { data, jws in
            try Transaction(try JSONDecoder().decode(SignedTransactionPayload.self, from: data), json: data, jws: jws)
        }
    }

    /// Renewal info's JWS verified, or nil when its payload is not renewal info.
    func renewalInfo(_ jws: String) -> VerificationResult<Product.SubscriptionInfo.RenewalInfo>? {
        verify(jws) { data, jws in
            try Product.SubscriptionInfo.RenewalInfo(
                try JSONDecoder().decode(RenewalInfoPayload.self, from: data), json: data, jws: jws)
        }
    }
}
