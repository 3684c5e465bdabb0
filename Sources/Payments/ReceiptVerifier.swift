import Foundation
import Signing
import StoreWire

/// Verifies a store's signed transaction: ES256 with an `x5c` chain to a pinned root (as Apple's verifier does, at
/// the transaction's `signedDate`), or HS256 with a shared secret. Then checks the payload: the bundle id, the
/// environment, and that the fields a credit depends on are there.
public struct ReceiptVerifier: TransactionVerifier {
    public enum Method: Sendable {
        case es256(root: Certificate)
        case hs256(secret: [UInt8])
    }

    /// The ways receipts may be signed: the one matching a receipt's `alg` is used.
    public let methods: [Method]
    public let bundleID: String

    public init(method: Method, bundleID: String) {
        self.init(methods: [method], bundleID: bundleID)
    }

    public init(methods: [Method], bundleID: String) {
        self.methods = methods
        self.bundleID = bundleID
    }

    public func verify(_ signedTransaction: String) throws -> SignedTransactionPayload {
        let jws = try CompactJWS.parse(signedTransaction)
        let payload: SignedTransactionPayload
        do {
            payload = try JSONDecoder().decode(SignedTransactionPayload.self, from: Data(jws.payload))
        } catch {
            throw ReceiptError("the payload is not a signed transaction: \(error)")
        }
        let candidates = methods.filter {
            switch $0 {
            case .hs256: return jws.header.alg == "HS256"
            case .es256: return jws.header.alg == "ES256"
            }
        }
        guard !candidates.isEmpty else {
            throw ReceiptError("it is signed with \(jws.header.alg), which this store configuration does not accept")
        }
        // Any pinned root or secret that verifies it will do (a store's root may have been pinned anew).
        var lastError: (any Error)?
        for method in candidates {
            do {
                switch method {
                case .hs256(let secret):
                    try jws.verifyHS256(secret: secret)
                case .es256(let root):
                    let signedAt = Date(timeIntervalSince1970: TimeInterval(payload.signedDate) / 1000)
                    try jws.verifyES256(chain: CertificateChainVerifier(trustedRoot: root), at: signedAt)
                }
                lastError = nil
                break
            } catch {
                lastError = error
            }
        }
        if let lastError { throw lastError }
        guard payload.bundleId == bundleID else {
            throw ReceiptError("it is for the app \(payload.bundleId), not \(bundleID)")
        }
        guard ["Sandbox", "Production"].contains(payload.environment) else {
            throw ReceiptError("its environment is \(payload.environment)")
        }
        return payload
    }
}

/// Why a receipt does not verify.
public struct ReceiptError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
