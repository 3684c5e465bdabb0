import Signing
import Testing

@Suite struct ECDSASignatureFormatTests {}

extension ECDSASignatureFormatTests {
    @Test func derAndRawRoundTrip() throws {
        let key = try P256PrivateKey.generate()
        let message = Array("convert me".utf8)
        let der = try key.derSignature(for: message)
        #expect(der.first == 0x30)
        let raw = try ECDSASignatureFormat.raw(fromDER: der)
        #expect(raw.count == 64)
        #expect(try ECDSASignatureFormat.der(fromRaw: raw) == der)
        #expect(key.publicKey.isValidSignature(raw, for: message))
    }

    /// Hand-built DER: small r and s are left-padded to 32 bytes; a leading 0x00 (positive sign) is dropped.
    @Test func knownConversions() throws {
        // SEQUENCE { INTEGER 1, INTEGER 2 }
        let small: [UInt8] = [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02]
        let raw = try ECDSASignatureFormat.raw(fromDER: small)
        #expect(raw == [UInt8](repeating: 0, count: 31) + [1] + [UInt8](repeating: 0, count: 31) + [2])
        #expect(try ECDSASignatureFormat.der(fromRaw: raw) == small)

        // r = 0xff * 32 needs a 0x00 sign byte in DER (33 bytes); s = 0x80 needs one too.
        let high = [UInt8](repeating: 0xff, count: 32) + [UInt8](repeating: 0, count: 31) + [0x80]
        let der = try ECDSASignatureFormat.der(fromRaw: high)
        let expected: [UInt8] =
            [0x30, 0x27, 0x02, 0x21, 0x00] + [UInt8](repeating: 0xff, count: 32)
            + [0x02, 0x02, 0x00, 0x80]
        #expect(der == expected)
        #expect(try ECDSASignatureFormat.raw(fromDER: der) == high)
    }

    @Test func rejectsMalformedDER() throws {
        let valid: [UInt8] = [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02]
        expectSigningError(.invalidSignature) { _ = try ECDSASignatureFormat.raw(fromDER: []) }
        expectSigningError(.invalidSignature) { _ = try ECDSASignatureFormat.raw(fromDER: Array(valid.dropLast())) }
        expectSigningError(.invalidSignature) { _ = try ECDSASignatureFormat.raw(fromDER: valid + [0]) }
        // Long-form length where short form is required: BER, not DER.
        expectSigningError(.invalidSignature) {
            _ = try ECDSASignatureFormat.raw(fromDER: [0x30, 0x81, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02])
        }
        // Negative r.
        expectSigningError(.invalidSignature) {
            _ = try ECDSASignatureFormat.raw(fromDER: [0x30, 0x06, 0x02, 0x01, 0xff, 0x02, 0x01, 0x02])
        }
        // r of 33 significant bytes does not fit P-256.
        let tooLong: [UInt8] = [0x30, 0x26, 0x02, 0x21, 0x01] + [UInt8](repeating: 0, count: 32) + [0x02, 0x01, 0x02]
        expectSigningError(.invalidSignature) { _ = try ECDSASignatureFormat.raw(fromDER: tooLong) }
    }

    @Test(arguments: [0, 32, 63, 65, 72])
    func rejectsRawOfWrongLength(_ length: Int) {
        expectSigningError(.invalidSignature) {
            _ = try ECDSASignatureFormat.der(fromRaw: [UInt8](repeating: 1, count: length))
        }
    }
}
