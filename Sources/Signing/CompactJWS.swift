import Foundation

/// A JWS in compact serialization (RFC 7515 section 7.1): `base64url(header).base64url(payload).base64url(signature)`.
public struct CompactJWS: Sendable {
    /// The largest compact string ``parse(_:)`` accepts: far above any App Store transaction (a few KiB with `x5c`),
    /// small enough that hostile input cannot make parsing expensive.
    public static let maximumLength = 64 * 1024

    /// The compact string as parsed.
    public let compact: String
    /// The decoded protected header.
    public let header: JWSHeader
    /// The header JSON bytes exactly as encoded in the JWS.
    public let headerBytes: [UInt8]
    /// The payload bytes exactly as encoded in the JWS.
    public let payload: [UInt8]
    /// The bytes that are signed: the ASCII of `base64url(header) "." base64url(payload)`, taken from the input.
    public let signingInput: [UInt8]
    /// The decoded signature (raw `r || s` for ES256, the MAC for HS256, empty for "none").
    public let signature: [UInt8]

    /// Parses a compact JWS strictly.
    ///
    /// Requires at most ``maximumLength`` bytes; exactly three parts separated by "."; each part strict unpadded
    /// base64url (see ``Base64URL/decode(_:)``); a header that is a JSON object with a string "alg", no duplicate
    /// member names, and no "crit" (no extensions are understood). The payload and signature may be empty.
    /// - Throws: ``SigningError`` (`malformedJWS`) saying which part is wrong and why.
    public static func parse(_ compact: String) throws -> CompactJWS {
        let bytes = Array(compact.utf8)
        guard !bytes.isEmpty else {
            throw SigningError.malformedJWS(.empty)
        }
        guard bytes.count <= maximumLength else {
            throw SigningError.malformedJWS(.tooLong(bytes: bytes.count, limit: maximumLength))
        }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw SigningError.malformedJWS(.partCount(parts.count))
        }
        guard !parts[0].isEmpty else {
            throw SigningError.malformedJWS(.emptyHeader)
        }
        let (headerBytes, header) = try RecentJWSHeader.shared.header(parts[0]) { encoded in
            guard let headerBytes = Base64URL.decode(utf8: Array(encoded)) else {
                throw SigningError.malformedJWS(.notBase64URL(.header))
            }
            return (headerBytes, try decodeHeader(headerBytes))
        }
        guard let payload = Base64URL.decode(utf8: Array(parts[1])) else {
            throw SigningError.malformedJWS(.notBase64URL(.payload))
        }
        guard let signature = Base64URL.decode(utf8: Array(parts[2])) else {
            throw SigningError.malformedJWS(.notBase64URL(.signature))
        }
        return CompactJWS(
            compact: compact,
            header: header,
            headerBytes: headerBytes,
            payload: payload,
            // The signed bytes are the input itself, never a re-encoding of the decoded parts.
            signingInput: Array(bytes[0..<(parts[0].count + 1 + parts[1].count)]),
            signature: signature
        )
    }

    /// Signs `payload` and returns the compact JWS.
    ///
    /// The header is `{"alg":…,"typ":…,"kid":…,"x5c":[…]}` with absent members left out (`typ` when nil, `kid` and
    /// `x5c` unless given to ``JWSSigner/es256(key:x5c:keyID:)``). The payload bytes are encoded exactly as given.
    /// To sign many payloads with one signer, prepare it once: ``CompactJWSSigner``.
    /// - Throws: ``SigningError`` (`invalidArgument`) for an empty HS256 secret or an `x5c` whose leaf does not hold
    ///   the signing key; OpenSSL failures.
    public static func sign(payload: [UInt8], typ: String? = "JWT", with signer: JWSSigner) throws -> String {
        try CompactJWSSigner(signer, typ: typ).sign(payload: payload)
    }

    private static func decodeHeader(_ bytes: [UInt8]) throws -> JWSHeader {
        let header: JWSHeader
        do {
            header = try JSONDecoder().decode(JWSHeader.self, from: Data(bytes))
        } catch {
            throw SigningError.malformedJWS(.headerWithoutAlg)
        }
        guard let names = JSONMemberNames.of(bytes) else {
            throw SigningError.malformedJWS(.headerNotObject)
        }
        var seen = Set<String>()
        for name in names where !seen.insert(name).inserted {
            throw SigningError.malformedJWS(.duplicateHeaderMember(name))
        }
        guard !seen.contains("crit") else {
            throw SigningError.malformedJWS(.criticalHeader)
        }
        guard !header.alg.isEmpty else {
            throw SigningError.malformedJWS(.emptyAlg)
        }
        return header
    }
}
