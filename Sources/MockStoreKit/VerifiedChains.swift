import Foundation
internal import Signing
import Synchronization

/// The `x5c` chains a session has verified to its root, each with its leaf's key and the dates all three
/// certificates are valid: a JWS presenting one of them again needs only its date checked and its signature.
final class VerifiedChains: Sendable {
    private struct Verified: Sendable {
        let leaf: LeafKey
        let validFrom: Date
        let validUntil: Date
    }

    /// The chains verified, and the one looked up last: a store signs with one chain, so the comparison (of the same
    /// strings, most often) spares hashing some 3 KB a transaction.
    private let verified = Mutex<(known: [[String]: Verified], latest: (chain: [String], entry: Verified)?)>(([:], nil))
    /// Enough for a store that changed its chain a few times; past it the oldest are forgotten.
    private let limit = 16

    /// The leaf key of `chain` (base64 DER, leaf first) when it chains to `root` and all three are valid at `date`.
    func leafKey(_ chain: [String], root: Certificate, at date: Date)
        -> Result<LeafKey, ChainProblem>
    {
        if let known = verified.withLock({ $0.latest?.chain == chain ? $0.latest?.entry : $0.known[chain] }) {
            guard known.validFrom <= date, date <= known.validUntil else { return .failure(.chain) }
            return .success(known.leaf)
        }
        let certificates = chain.compactMap { text in
            Data(base64Encoded: text).flatMap { try? Certificate(derRepresentation: Array($0)) }
        }
        guard certificates.count == 3 else { return .failure(.encoding) }
        do {
            try CertificateChainVerifier(trustedRoot: root).verify(certificates, at: date)
            let leaf = try LeafKey(try certificates[0].publicKey())
            let entry = Verified(
                leaf: leaf, validFrom: certificates.map(\.notBefore).max() ?? date,
                validUntil: certificates.map(\.notAfter).min() ?? date)
            verified.withLock { verified in
                if verified.known.count >= limit { verified.known.removeAll() }
                verified.known[chain] = entry
                verified.latest = (chain, entry)
            }
            return .success(leaf)
        } catch {
            return .failure(.chain)
        }
    }
}

/// A chain's leaf key, as it verifies: the store's leaf is an uncompressed named-curve point, verified by
/// ``P256PointKey`` (`ECDSA_do_verify` on a shared group, without the provider's fetches and key context around each
/// verification, which cost about as much as the arithmetic); any other form by ``P256PublicKey``. Both verify the
/// same signatures (`SigningTests.P256PointKeyTests`).
enum LeafKey: Sendable {
    case point(P256PointKey)
    case key(P256PublicKey)

    init(_ key: P256PublicKey) throws {
        self = try P256PointKey(derRepresentation: key.derRepresentation).map(LeafKey.point) ?? .key(key)
    }

    /// Whether `signature` (`r || s`) signs `message` (ES256).
    func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        switch self {
        case .point(let key): return key.isValidSignature(signature, for: message)
        case .key(let key): return key.isValidSignature(signature, for: message)
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
