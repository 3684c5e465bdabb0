// Linux only: it needs OpenSSL-only parts of Signing (the test CA, certificate building, extensions by OID).
#if !canImport(CryptoKit)
    import COpenSSL
    import Foundation
    import Testing

    @testable import Signing

    /// What the fast test-CA path (made at every `mockstore --ephemeral` start) must keep: the Gregorian calendar's
    /// "N years later" in UTC, and each key's public half exactly as OpenSSL's own encoder gives it.
    @Suite struct TestCertificateAuthorityStartTests {
        /// `years` after `start` by Foundation's Gregorian calendar in UTC: what the CA's validity used to be computed
        /// with, and must still equal.
        static func calendarYears(_ years: Int, after start: Date) throws -> Date {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = try #require(TimeZone(secondsFromGMT: 0))
            return try #require(calendar.date(byAdding: .year, value: years, to: start))
        }
    }

    extension TestCertificateAuthorityStartTests {
        @Test(arguments: [
            (1_735_689_600, 10),  // 2025-01-01T00:00:00Z
            (1_709_164_800, 1),  // 2024-02-29T00:00:00Z: 2025-02-28
            (1_709_251_199, 4),  // 2024-02-29T23:59:59Z: 2028-02-29
            (1_709_208_000, 100),  // 2024-02-29T12:00:00Z: 2124-02-29
            (1_709_208_000, 76),  // 2100 is not a leap year: 2100-02-28
            (951_782_400, 10),  // 2000-02-29T00:00:00Z
            (1_767_225_599, 3),  // 2025-12-31T23:59:59Z
        ])
        func validityEndsWhereTheGregorianCalendarSays(seconds: Int, years: Int) throws {
            let start = Date(timeIntervalSince1970: TimeInterval(seconds))
            let ca = try TestCertificateAuthority.make(validFrom: start, years: years)
            let expected = try Self.calendarYears(years, after: start)
            for certificate in ca.chain {
                #expect(certificate.notBefore == start)
                #expect(certificate.notAfter == expected, "\(years) years after \(start)")
            }
        }

        @Test func aFractionalStartKeepsItsWholeSeconds() throws {
            let start = Date(timeIntervalSince1970: 1_735_689_600.75)
            let ca = try TestCertificateAuthority.make(validFrom: start, years: 2)
            // Certificates hold whole seconds: both ends are the start's second, two years apart.
            #expect(ca.leaf.notBefore == Date(timeIntervalSince1970: 1_735_689_600))
            #expect(ca.leaf.notAfter == Date(timeIntervalSince1970: 1_798_761_600))  // 2027-01-01T00:00:00Z
        }

        @Test func aValidityBeyondTheCalendarIsRefused() {
            expectSigningError(.invalidArgument) {
                _ = try TestCertificateAuthority.make(validFrom: TestDates.start, years: Int(Int32.max))
            }
        }

        @Test func aNewKeysPublicHalfIsWhatOpenSSLEncodes() throws {
            for _ in 0..<3 {
                let key = try P256PrivateKey.generate()
                let encoded = try DER.encode("public key") { i2d_PUBKEY(key.key, $0) }
                #expect(key.publicKey.derRepresentation == encoded)
                #expect(try P256PublicKey(derRepresentation: encoded).derRepresentation == encoded)
                let message = Array("a new store's first transaction".utf8)
                #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
            }
        }

        @Test func aLoadedKeysPublicHalfIsWhatOpenSSLEncodes() throws {
            let generated = try P256PrivateKey.generate()
            let loaded = try P256PrivateKey(pemRepresentation: generated.pemRepresentation)
            #expect(loaded.publicKey.derRepresentation == generated.publicKey.derRepresentation)
            let encoded = try DER.encode("public key") { i2d_PUBKEY(loaded.key, $0) }
            #expect(loaded.publicKey.derRepresentation == encoded)
        }

        @Test func eachCertificateCarriesItsKeysPublicHalf() throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            #expect(try ca.root.publicKey().derRepresentation == ca.rootKey.publicKey.derRepresentation)
            #expect(try ca.intermediate.publicKey().derRepresentation == ca.intermediateKey.publicKey.derRepresentation)
            #expect(try ca.leaf.publicKey().derRepresentation == ca.leafKey.publicKey.derRepresentation)
        }
    }
#endif
