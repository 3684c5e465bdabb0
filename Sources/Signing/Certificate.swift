// The OpenSSL side, for Linux. Where CryptoKit is (Apple platforms, no OpenSSL) CryptoKit/ holds this type.
#if !canImport(CryptoKit)
    import COpenSSL
    import Foundation

    /// An X.509 certificate.
    ///
    /// Owns an OpenSSL `X509` and frees it in `deinit`. `@unchecked Sendable` because the object is immutable after
    /// `init`: no method changes the `X509`, and OpenSSL guards its internal extension cache with a lock, so concurrent
    /// reads and chain verifications are safe.
    public final class Certificate: @unchecked Sendable, Equatable {
        let certificate: OpaquePointer

        /// The certificate's DER encoding.
        public let derRepresentation: [UInt8]
        /// The start of the validity period.
        public let notBefore: Date
        /// The end of the validity period.
        public let notAfter: Date
        /// The first common name (CN) in the subject, or nil if the subject has none.
        public let subjectCommonName: String?

        /// Takes ownership of `certificate` (freeing it if it is rejected).
        init(taking certificate: OpaquePointer) throws {
            do {
                derRepresentation = try DER.encode("certificate") { i2d_X509(certificate, $0) }
                notBefore = try Self.date(X509_get0_notBefore(certificate), what: "notBefore")
                notAfter = try Self.date(X509_get0_notAfter(certificate), what: "notAfter")
                subjectCommonName = try Self.commonName(X509_get_subject_name(certificate))
            } catch {
                X509_free(certificate)
                throw error
            }
            self.certificate = certificate
        }

        deinit {
            X509_free(certificate)
        }

        /// Creates a certificate from DER.
        ///
        /// - Throws: ``SigningError`` (`invalidCertificate`) if the bytes are not exactly one DER certificate.
        public convenience init(derRepresentation: [UInt8]) throws {
            let certificate = try DER.decode(
                derRepresentation,
                failure: { .invalidCertificate(.der($0), openSSLReason: $1) },
                decoder: { cursor, length in d2i_X509(nil, cursor, length) },
                free: { X509_free($0) }
            )
            try self.init(taking: certificate)
        }

        /// Creates a certificate from the first `-----BEGIN CERTIFICATE-----` PEM block in `pemRepresentation`.
        public convenience init(pemRepresentation: String) throws {
            let certificate = try MemoryBIO.reading(pemRepresentation) { bio in
                guard let certificate = PEM_read_bio_X509(bio, nil, nil, nil) else {
                    throw SigningError.invalidCertificate(.noPEM, openSSLReason: OpenSSLErrorQueue.drain())
                }
                return certificate
            }
            try self.init(taking: certificate)
        }

        /// The certificate as PEM (`-----BEGIN CERTIFICATE-----`).
        public var pemRepresentation: String {
            PEM.encode(label: "CERTIFICATE", der: derRepresentation)
        }

        /// The serial number as big-endian bytes without leading zeros.
        public var serialNumber: [UInt8] {
            guard let serial = X509_get0_serialNumber(certificate), let data = ASN1_STRING_get0_data(serial) else {
                return []
            }
            return Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(serial))))
        }

        /// The subject public key, which must be a named-curve P-256 key.
        ///
        /// - Throws: ``SigningError`` (`invalidKey`) if the key is of another type or curve.
        public func publicKey() throws -> P256PublicKey {
            guard let key = X509_get0_pubkey(certificate) else {
                throw SigningError.invalidKey(
                    .unreadableCertificateKey(certificate: name), openSSLReason: OpenSSLErrorQueue.drain())
            }
            let der = try DER.encode("certificate public key") { i2d_PUBKEY(key, $0) }
            return try P256PublicKey(derRepresentation: der)
        }

        /// Returns whether the certificate has an extension with the dotted object identifier `oid`.
        public func hasExtension(oid: String) -> Bool {
            extensionIndex(oid: oid) != nil
        }

        /// Returns whether the extension `oid` is marked critical, or nil if the certificate does not have it.
        public func isCriticalExtension(oid: String) -> Bool? {
            guard let index = extensionIndex(oid: oid), let entry = X509_get_ext(certificate, index) else {
                return nil
            }
            return X509_EXTENSION_get_critical(entry) != 0
        }

        /// Returns the contents of the extension's `extnValue` OCTET STRING (the DER of the extension value), or nil if
        /// the certificate does not have the extension. Apple's marker extensions hold `05 00` (NULL).
        public func extensionValue(oid: String) -> [UInt8]? {
            guard let index = extensionIndex(oid: oid),
                let entry = X509_get_ext(certificate, index),
                let value = X509_EXTENSION_get_data(entry)
            else {
                return nil
            }
            let length = Int(ASN1_STRING_length(value))
            guard length > 0, let data = ASN1_STRING_get0_data(value) else {
                return []
            }
            return Array(UnsafeBufferPointer(start: data, count: length))
        }

        /// Certificates are equal when their DER encodings are.
        public static func == (lhs: Certificate, rhs: Certificate) -> Bool {
            lhs.derRepresentation == rhs.derRepresentation
        }

        /// A name for messages: the common name, or a note that there is none.
        var name: String {
            subjectCommonName.map { "\"\($0)\"" } ?? "(no common name)"
        }

        private func extensionIndex(oid: String) -> Int32? {
            // no_name = 1: accept only the dotted numeric form, never a short or long name.
            guard let object = OBJ_txt2obj(oid, 1) else {
                OpenSSLErrorQueue.clear()
                return nil
            }
            defer { ASN1_OBJECT_free(object) }
            let index = X509_get_ext_by_OBJ(certificate, object, -1)
            return index >= 0 ? index : nil
        }

        private static func date(_ time: UnsafePointer<ASN1_TIME>?, what: String) throws -> Date {
            var components = tm()
            guard let time, ASN1_TIME_to_tm(time, &components) == 1 else {
                throw SigningError.invalidCertificate(
                    .unreadableTime(which: what), openSSLReason: OpenSSLErrorQueue.drain())
            }
            return Date(timeIntervalSince1970: TimeInterval(timegm(&components)))
        }

        private static func commonName(_ name: OpaquePointer?) throws -> String? {
            guard let name else {
                return nil
            }
            let index = X509_NAME_get_index_by_NID(name, NID_commonName, -1)
            guard index >= 0,
                let entry = X509_NAME_get_entry(name, index),
                let data = X509_NAME_ENTRY_get_data(entry)
            else {
                return nil
            }
            var utf8: UnsafeMutablePointer<UInt8>?
            let length = ASN1_STRING_to_UTF8(&utf8, data)
            guard length >= 0, let utf8 else {
                throw SigningError.invalidCertificate(.commonNameNotText, openSSLReason: OpenSSLErrorQueue.drain())
            }
            defer { COpenSSL_OPENSSL_free(utf8) }
            return String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)
        }
    }
#endif
