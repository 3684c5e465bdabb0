// Linux only: it needs OpenSSL-only parts of Signing (the test CA, certificate building, extensions by OID).
#if !canImport(CryptoKit)
    import Signing
    import Testing

    /// `P256PointKey` (a verifying key from the point, on a shared group, `ECDSA_do_verify`) verifies exactly what
    /// `P256PublicKey` verifies: every vector of Vectors/ecdsa_p256_sha256_p1363.json, fresh keys' signatures, and each
    /// kind of wrong one; a point off the curve is refused by both, and any other form of key is left to
    /// `P256PublicKey`.
    @Suite struct P256PointKeyTests {}

    extension P256PointKeyTests {
        @Test(arguments: try ECDSAVector.all())
        func verifiesEveryVectorAsThePublicKeyDoes(_ vector: ECDSAVector) throws {
            let der = try hexBytes(vector.publicKeyDER)
            let point = try #require(try P256PointKey(derRepresentation: der), "the named-curve form of a point")
            let message = try hexBytes(vector.message)
            let signature = try hexBytes(vector.signature)
            #expect(point.isValidSignature(signature, for: message) == vector.valid)
            let key = try P256PublicKey(derRepresentation: der)
            #expect(point.isValidSignature(signature, for: message) == key.isValidSignature(signature, for: message))
        }

        @Test func freshKeysSignaturesAndEachWrongOneAsThePublicKeyDoes() throws {
            // The group order n of P-256, big-endian: an r or s of n (or more) is no signature.
            let order = try hexBytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
            for index in 0..<40 {
                let privateKey = try P256PrivateKey.generate()
                let key = privateKey.publicKey
                let point = try #require(try P256PointKey(derRepresentation: key.derRepresentation))
                let message = Array("summary \(index)".utf8)
                let signature = try privateKey.signature(for: message)
                var flipped = signature
                flipped[index % 64] ^= 0x01
                let wrong: [[UInt8]] = [
                    flipped, Array(signature.prefix(63)), signature + [0], [UInt8](repeating: 0, count: 64),
                    [UInt8](repeating: 0, count: 32) + signature.suffix(32), signature.prefix(32) + order,
                    order + order,
                ]
                #expect(
                    point.isValidSignature(signature, for: message) && key.isValidSignature(signature, for: message))
                #expect(!point.isValidSignature(signature, for: message + [0]))
                for bad in wrong {
                    #expect(!point.isValidSignature(bad, for: message) && !key.isValidSignature(bad, for: message))
                }
            }
        }

        @Test func aPointOffTheCurveIsRefusedByBoth() throws {
            var der = try P256PrivateKey.generate().publicKey.derRepresentation
            der[der.count - 1] ^= 0x01
            #expect(throws: SigningError.self) { try P256PointKey(derRepresentation: der) }
            #expect(throws: SigningError.self) { try P256PublicKey(derRepresentation: der) }
        }

        @Test func anyOtherFormIsLeftToThePublicKey() throws {
            let der = try P256PrivateKey.generate().publicKey.derRepresentation
            var compressed = der
            compressed[26] = 0x02
            for other in [Array(der.dropLast()), der + [0], compressed, [UInt8]()] {
                #expect(try P256PointKey(derRepresentation: other) == nil)
            }
        }
    }
#endif
