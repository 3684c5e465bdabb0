import Foundation
import Locking

/// The last JWS header decoded, kept by its encoded bytes: one signer puts the same header (its `x5c` chain, some
/// 3 KB) on every JWS, and decoding it again from base64url and JSON cost a StoreKit client as much as the rest of the
/// transaction. Decoding is a function of the bytes, so equal bytes give the header decoded before.
final class RecentJWSHeader: Sendable {
    static let shared = RecentJWSHeader()

    private struct Decoded: Sendable {
        let encoded: [UInt8]
        let bytes: [UInt8]
        let header: JWSHeader
    }

    private let last = Locked<Decoded?>(nil)

    /// The header of `encoded` (base64url, as in the JWS) and its decoded bytes, from `decode` unless `encoded` is the
    /// last one decoded.
    func header(
        _ encoded: ArraySlice<UInt8>, decode: (ArraySlice<UInt8>) throws -> ([UInt8], JWSHeader)
    ) rethrows -> ([UInt8], JWSHeader) {
        if let last = last.withLock({ $0 }), last.encoded.elementsEqual(encoded) {
            return (last.bytes, last.header)
        }
        let (bytes, header) = try decode(encoded)
        let decoded = Decoded(encoded: Array(encoded), bytes: bytes, header: header)
        last.withLock { $0 = decoded }
        return (bytes, header)
    }
}
