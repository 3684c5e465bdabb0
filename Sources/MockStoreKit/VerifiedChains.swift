import Foundation
internal import Signing
import Synchronization

/// The `x5c` chains a session has verified to its root, each with its leaf's key and the dates all three
/// certificates are valid: a JWS presenting one of them again needs only its date checked and its signature.
final class VerifiedChains: Sendable {
    private struct Verified: Sendable {
        let leaf: P256PublicKey
        let validFrom: Date
        let validUntil: Date
    }

    private let verified = Mutex<[[String]: Verified]>([:])
    /// Enough for a store that changed its chain a few times; past it the oldest are forgotten.
    private let limit = 16

    /// The leaf key of `chain` (base64 DER, leaf first) when it chains to `root` and all three are valid at `date`.
    func leafKey(_ chain: [String], root: Certificate, at date: Date)
        -> Result<P256PublicKey, ChainProblem>
    {
        if let known = verified.withLock({ $0[chain] }) {
            guard known.validFrom <= date, date <= known.validUntil else { return .failure(.chain) }
            return .success(known.leaf)
        }
        let certificates = chain.compactMap { text in
            Data(base64Encoded: text).flatMap { try? Certificate(derRepresentation: Array($0)) }
        }
        guard certificates.count == 3 else { return .failure(.encoding) }
        do {
            try CertificateChainVerifier(trustedRoot: root).verify(certificates, at: date)
            let leaf = try certificates[0].publicKey()
            let entry = Verified(
                leaf: leaf, validFrom: certificates.map(\.notBefore).max() ?? date,
                validUntil: certificates.map(\.notAfter).min() ?? date)
            verified.withLock { known in
                if known.count >= limit { known.removeAll() }
                known[chain] = entry
            }
            return .success(leaf)
        } catch {
            return .failure(.chain)
        }
    }
}

/// Why a chain gave no leaf key.
enum ChainProblem: Error {
    /// It does not chain to the root, or is not valid at the date.
    case chain
    /// A certificate in it cannot be read.
    case encoding
}
