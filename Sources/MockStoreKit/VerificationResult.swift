import Foundation
internal import Signing

/// StoreKit 2's `VerificationResult` (https://developer.apple.com/documentation/storekit/verificationresult): signed
/// data as the store handed it, verified against the configured root or not.
@frozen public enum VerificationResult<SignedType> {
    /// The signature, or the chain to the root, did not verify: the value is the payload as claimed.
    case unverified(SignedType, VerificationResult<SignedType>.VerificationError)
    /// Signed by the store under the configured root.
    case verified(SignedType)
}

extension VerificationResult: Sendable where SignedType: Sendable {}
extension VerificationResult: Equatable where SignedType: Equatable {}
extension VerificationResult: Hashable where SignedType: Hashable {}

extension VerificationResult {
    /// StoreKit 2's `VerificationResult.VerificationError`.
    public enum VerificationError: Error, LocalizedError, Equatable, Hashable, Sendable {
        case revokedCertificate
        case invalidCertificateChain
        case invalidDeviceVerification
        case invalidEncoding
        case invalidSignature
        case missingRequiredProperties

        public var errorDescription: String? {
            switch self {
            case .revokedCertificate: return "A certificate in the chain was revoked."
            case .invalidCertificateChain: return "The certificate chain does not lead to the trusted root."
            case .invalidDeviceVerification: return "The device verification does not match this device."
            case .invalidEncoding: return "The signed data cannot be decoded."
            case .invalidSignature: return "The signature does not verify."
            case .missingRequiredProperties: return "A required property is missing."
            }
        }
    }

    /// The value, verified; throws the ``VerificationError`` when it is not.
    public var payloadValue: SignedType {
        get throws {
            switch self {
            case .verified(let value): return value
            case .unverified(_, let error): throw error
            }
        }
    }

    /// The value, verified or not.
    public var unsafePayloadValue: SignedType {
        switch self {
        case .verified(let value), .unverified(let value, _): return value
        }
    }

    /// The compact JWS the store signed, for a server to check itself.
    public var jwsRepresentation: String { signed.jws }

    /// The JWS header, decoded from base64url.
    public var headerData: Data { part(0) }
    /// The JWS payload, decoded from base64url.
    public var payloadData: Data { part(1) }
    /// The JWS signature, decoded from base64url.
    public var signatureData: Data { part(2) }
    /// What the signature covers: the header and payload as they appear in the JWS, joined by a dot.
    public var signedData: Data {
        let bytes = Array(jwsRepresentation.utf8)
        let dots = bytes.indices.filter { bytes[$0] == UInt8(ascii: ".") }
        return dots.count == 2 ? Data(bytes[..<dots[1]]) : Data()
    }
    /// When the store signed it.
    public var signedDate: Date { signed.signedDateValue }

    private var signed: any SignedByStore {
        guard let value = unsafePayloadValue as? any SignedByStore else {
            preconditionFailure("VerificationResult holds only what MockStoreKit decoded from a JWS")
        }
        return value
    }

    private func part(_ index: Int) -> Data {
        let parts = Array(jwsRepresentation.utf8).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else { return Data() }
        return Base64URL.decode(String(decoding: parts[index], as: UTF8.self)).map { Data($0) } ?? Data()
    }
}

/// What a JWS the store signed decodes into: it keeps the JWS it came from.
protocol SignedByStore: Sendable {
    var jws: String { get }
    var signedDateValue: Date { get }
    /// The device verification it carries (`deviceVerification`, `deviceVerificationNonce`), when it carries one.
    var deviceStamp: (verification: Data, nonce: UUID)? { get }
}

extension SignedByStore {
    var deviceStamp: (verification: Data, nonce: UUID)? { nil }
}
