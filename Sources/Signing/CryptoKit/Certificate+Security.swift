#if canImport(CryptoKit)
    import Foundation
    import Security

    /// An X.509 certificate: the Security framework's `SecCertificate`, on Apple platforms.
    ///
    /// What the app's store layer needs of a certificate, from the calls Apple documents for iOS 17: reading DER
    /// (`SecCertificateCreateWithData`) and PEM, the DER back (`SecCertificateCopyData`), the subject's common name
    /// (`SecCertificateCopyCommonName`), the serial number (`SecCertificateCopySerialNumberData`) and the P-256
    /// public key (`SecCertificateCopyKey`, `SecKeyCopyExternalRepresentation`). Written from Apple's documentation
    /// and never compiled on Linux.
    ///
    /// Not here, unlike the OpenSSL side: `notBefore` and `notAfter` (their calls,
    /// `SecCertificateCopyNotValidBeforeDate` and `…AfterDate`, are iOS 18 and later), and `hasExtension(oid:)`,
    /// `isCriticalExtension(oid:)`, `extensionValue(oid:)` (iOS has no documented call that reads an extension by
    /// its object identifier; this library does not parse certificates itself). `SecTrust` checks validity dates
    /// and extensions when a chain is verified (``CertificateChainVerifier``).
    ///
    /// `@unchecked Sendable` because a `SecCertificate` is an immutable Core Foundation object.
    public final class Certificate: @unchecked Sendable, Equatable {
        let certificate: SecCertificate

        /// The certificate's DER encoding.
        public let derRepresentation: [UInt8]
        /// The first common name (CN) in the subject, or nil if the subject has none.
        public let subjectCommonName: String?

        /// Creates a certificate from DER.
        ///
        /// - Throws: ``SigningError`` (`invalidCertificate`) if the Security framework does not take the bytes as
        ///   one DER certificate, or if they hold more than the certificate it read.
        public init(derRepresentation: [UInt8]) throws {
            guard !derRepresentation.isEmpty else {
                throw SigningError.invalidCertificate(.der(.empty))
            }
            guard let certificate = SecCertificateCreateWithData(nil, Data(derRepresentation) as CFData) else {
                throw SigningError.invalidCertificate(.der(.invalid))
            }
            // The certificate's own DER, as Security read it: anything after it is refused, as on the OpenSSL side.
            let read = Array(SecCertificateCopyData(certificate) as Data)
            guard read == derRepresentation else {
                let extra = derRepresentation.count - read.count
                throw SigningError.invalidCertificate(
                    extra > 0 && derRepresentation.starts(with: read) ? .der(.trailingBytes(extra)) : .der(.invalid))
            }
            var commonName: CFString?
            let status = SecCertificateCopyCommonName(certificate, &commonName)
            self.certificate = certificate
            self.derRepresentation = read
            // errSecSuccess with no name, or a failure, both mean the subject names no CN that can be read.
            subjectCommonName = status == errSecSuccess ? commonName.map { $0 as String } : nil
        }

        /// Creates a certificate from the first `-----BEGIN CERTIFICATE-----` PEM block in `pemRepresentation`.
        public convenience init(pemRepresentation: String) throws {
            guard let der = PEM.decode(label: "CERTIFICATE", from: pemRepresentation) else {
                throw SigningError.invalidCertificate(.noPEM)
            }
            try self.init(derRepresentation: der)
        }

        /// The certificate as PEM (`-----BEGIN CERTIFICATE-----`).
        public var pemRepresentation: String {
            PEM.encode(label: "CERTIFICATE", der: derRepresentation)
        }

        /// The serial number as big-endian bytes without leading zeros.
        public var serialNumber: [UInt8] {
            guard let data = SecCertificateCopySerialNumberData(certificate, nil) else {
                return []
            }
            // The content of a DER INTEGER: a positive serial with its top bit set starts with a 0x00 sign byte.
            return Array((data as Data).drop { $0 == 0 })
        }

        /// The subject public key, which must be a P-256 key.
        ///
        /// - Throws: ``SigningError`` (`invalidKey`) if the key cannot be read or is not an elliptic-curve key of 256
        ///   bits.
        public func publicKey() throws -> P256PublicKey {
            guard let key = SecCertificateCopyKey(certificate),
                let attributes = SecKeyCopyAttributes(key) as? [CFString: Any]
            else {
                throw SigningError.invalidKey(.unreadableCertificateKey(certificate: name))
            }
            guard let type = attributes[kSecAttrKeyType] as? String, type == (kSecAttrKeyTypeECSECPrimeRandom as String)
            else {
                throw SigningError.invalidKey(.notEC(what: "certificate public key"))
            }
            guard let bits = attributes[kSecAttrKeySizeInBits] as? Int, bits == 256 else {
                let size = (attributes[kSecAttrKeySizeInBits] as? Int).map { "\($0) bits" } ?? "unknown size"
                throw SigningError.invalidKey(.wrongCurve(what: "certificate public key", curve: size))
            }
            // An elliptic-curve public key's external representation is the X9.63 point 04 || x || y.
            guard let point = SecKeyCopyExternalRepresentation(key, nil) else {
                throw SigningError.invalidKey(.unreadableCertificateKey(certificate: name))
            }
            return try P256PublicKey(x963Representation: Array(point as Data))
        }

        /// Certificates are equal when their DER encodings are.
        public static func == (lhs: Certificate, rhs: Certificate) -> Bool {
            lhs.derRepresentation == rhs.derRepresentation
        }

        /// A name for messages: the common name, or a note that there is none.
        var name: String {
            subjectCommonName.map { "\"\($0)\"" } ?? "(no common name)"
        }
    }
#endif
