import Foundation
import Signing
import StoreWire

/// Checks a store's signed transaction and returns it verified, or throws saying why it cannot be trusted.
public protocol TransactionVerifier: Sendable {
    func verify(_ transaction: SignedTransaction) throws(ReceiptError) -> VerifiedTransaction
}

/// Verifies a store's signed transaction: ES256 with an `x5c` chain to a pinned root (as Apple's verifier does, at
/// the transaction's `signedDate`), or HS256 with a shared secret. Then checks the payload: the bundle id, and the
/// environment, fixed when the verifier is made (a verifier for the App Store takes Production receipts only, so a
/// sandbox receipt, also signed by Apple, never buys real credit).
public struct ReceiptVerifier: TransactionVerifier {
    public enum Method: Sendable {
        case es256(root: Certificate)
        case hs256(secret: [UInt8])
    }

    /// The ways receipts may be signed: the one matching a receipt's `alg` is used.
    public let methods: [Method]
    public let bundleID: String
    /// The one environment receipts must come from.
    public let environment: AppStoreEnvironment

    public init(method: Method, bundleID: String, environment: AppStoreEnvironment) {
        self.init(methods: [method], bundleID: bundleID, environment: environment)
    }

    public init(methods: [Method], bundleID: String, environment: AppStoreEnvironment) {
        self.methods = methods
        self.bundleID = bundleID
        self.environment = environment
    }

    public func verify(_ transaction: SignedTransaction) throws(ReceiptError) -> VerifiedTransaction {
        let jws: CompactJWS
        do {
            jws = try CompactJWS.parse(transaction.jwsRepresentation)
        } catch {
            throw .malformed(ReceiptError.words(error))
        }
        let payload: SignedTransactionPayload
        do {
            payload = try JSONDecoder().decode(SignedTransactionPayload.self, from: Data(jws.payload))
        } catch {
            throw .malformed("the payload is not a signed transaction: \(DecodingWords.describe(error))")
        }
        try checkSignature(jws, signedDate: payload.signedDate)
        guard payload.bundleId == bundleID else {
            throw .wrongApp(expected: bundleID, found: payload.bundleId)
        }
        let found = payload.environment
        guard found == environment else {
            throw .wrongEnvironment(expected: environment, found: found)
        }
        return VerifiedTransaction(payload: payload, signed: transaction)
    }

    /// The DER of the root certificate a JWS presents (`x5c[2]`), when it has one.
    private static func presentedRoot(of jws: CompactJWS) -> [UInt8]? {
        guard let chain = jws.header.x5c, chain.count == 3, let der = Data(base64Encoded: chain[2]) else { return nil }
        return Array(der)
    }

    /// Any pinned root or secret that verifies it will do (a store's root may have been pinned anew).
    private func checkSignature(_ jws: CompactJWS, signedDate: Int64) throws(ReceiptError) {
        let candidates = methods.filter {
            switch $0 {
            case .hs256: return jws.header.alg == "HS256"
            case .es256: return jws.header.alg == "ES256"
            }
        }
        guard !candidates.isEmpty else { throw .algorithmNotAccepted(jws.header.alg) }
        var lastError: (any Error)?
        // Whether every pinned root failed because the chain names another one (not a forgery that names ours).
        var otherRoot = true
        for method in candidates {
            do {
                switch method {
                case .hs256(let secret):
                    try jws.verifyHS256(secret: secret)
                case .es256(let root):
                    let signedAt = Date(timeIntervalSince1970: TimeInterval(signedDate) / 1000)
                    try jws.verifyES256(chain: CertificateChainVerifier(trustedRoot: root), at: signedAt)
                }
                return
            } catch {
                lastError = error
                if case .es256(let root) = method, ReceiptVerifier.presentedRoot(of: jws) == root.derRepresentation {
                    otherRoot = false
                }
                if case .hs256 = method { otherRoot = false }
            }
        }
        if otherRoot && ReceiptVerifier.presentedRoot(of: jws) != nil { throw .rootChanged }
        throw .signatureInvalid(lastError.map(ReceiptError.words) ?? "no method verifies it")
    }
}
