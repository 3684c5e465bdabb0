// OpenSSL only, for Linux: the app does not need it, and Apple platforms have no OpenSSL to link.
#if !canImport(CryptoKit)
    import COpenSSL
    import Foundation

    /// Issues X.509 v3 certificates with P-256 keys and ECDSA-SHA256 signatures, for the test CA.
    enum CertificateBuilder {
        /// One extension to put in a certificate.
        enum Extension {
            /// A standard extension from OpenSSL's configuration syntax, e.g. `(NID_key_usage,
            /// "critical,keyCertSign")`.
            case standard(nid: Int32, value: String)
            /// An arbitrary extension: `value` is the DER placed inside `extnValue`.
            case custom(oid: String, critical: Bool, value: [UInt8])
        }

        /// The issuer of a certificate: nil issuer certificate means self-signed with `key`.
        struct Issuer {
            let certificate: Certificate?
            let key: P256PrivateKey
        }

        /// Builds and signs one certificate.
        static func issue(
            subject: [(field: String, value: String)],
            subjectKey: P256PublicKey,
            issuer: Issuer,
            notBefore: Date,
            notAfter: Date,
            extensions: [Extension]
        ) throws -> Certificate {
            guard let certificate = X509_new() else {
                throw SigningError.failedCall("X509_new")
            }
            // Freed here until Certificate(taking:) owns it.
            var owned: OpaquePointer? = certificate
            defer {
                if let owned {
                    X509_free(owned)
                }
            }
            // Version field value 2 means X.509 v3 (needed for extensions).
            guard X509_set_version(certificate, 2) == 1 else {
                throw SigningError.failedCall("X509_set_version(v3)")
            }
            try setRandomSerial(certificate)
            try setSubject(subject, on: certificate)
            let issuerName =
                issuer.certificate.map { X509_get_subject_name($0.certificate) }
                ?? X509_get_subject_name(certificate)
            guard X509_set_issuer_name(certificate, issuerName) == 1 else {
                throw SigningError.failedCall("X509_set_issuer_name")
            }
            guard ASN1_TIME_set(X509_getm_notBefore(certificate), time_t(notBefore.timeIntervalSince1970)) != nil,
                ASN1_TIME_set(X509_getm_notAfter(certificate), time_t(notAfter.timeIntervalSince1970)) != nil
            else {
                throw SigningError.failedCall("ASN1_TIME_set (validity)")
            }
            // The point, not the EVP_PKEY: see COpenSSL_X509_set_P256_public_point (a new CA at every --ephemeral
            // start).
            let point = subjectKey.x963Representation
            let setKey = point.withUnsafeBufferPointer {
                COpenSSL_X509_set_P256_public_point(certificate, $0.baseAddress, $0.count)
            }
            guard setKey == 1 else {
                throw SigningError.failedCall("X509_set_pubkey")
            }

            // The extension context names issuer and subject so "hash" / "keyid:always" find the right keys.
            var context = X509V3_CTX()
            X509V3_set_ctx(&context, issuer.certificate?.certificate ?? certificate, certificate, nil, nil, 0)
            for item in extensions {
                try add(item, to: certificate, context: &context)
            }

            guard X509_sign(certificate, issuer.key.key, FetchedAlgorithms.shared.sha256) > 0 else {
                throw SigningError.failedCall("X509_sign(ECDSA P-256, SHA-256)")
            }
            owned = nil
            return try Certificate(taking: certificate)
        }

        /// Sets a random positive 128-bit serial number (RFC 5280 allows up to 20 bytes; CAs use random ones).
        private static func setRandomSerial(_ certificate: OpaquePointer) throws {
            var bytes = SecureRandom.bytes(16)
            // Top bit clear keeps it positive; the next bit set keeps it exactly 16 bytes long.
            bytes[0] = bytes[0] & 0x7f | 0x40
            guard let number = BN_bin2bn(bytes, Int32(bytes.count), nil) else {
                throw SigningError.failedCall("BN_bin2bn(serial)")
            }
            defer { BN_free(number) }
            guard BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate)) != nil else {
                throw SigningError.failedCall("BN_to_ASN1_INTEGER(serial)")
            }
        }

        private static func setSubject(_ subject: [(field: String, value: String)], on certificate: OpaquePointer)
            throws
        {
            guard let name = X509_NAME_new() else {
                throw SigningError.failedCall("X509_NAME_new")
            }
            defer { X509_NAME_free(name) }
            for (field, value) in subject {
                let bytes = Array(value.utf8)
                guard X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, bytes, Int32(bytes.count), -1, 0) == 1
                else {
                    throw SigningError.failedCall("X509_NAME_add_entry_by_txt(\(field))")
                }
            }
            // X509_set_subject_name copies the name.
            guard X509_set_subject_name(certificate, name) == 1 else {
                throw SigningError.failedCall("X509_set_subject_name")
            }
        }

        private static func add(_ item: Extension, to certificate: OpaquePointer, context: inout X509V3_CTX) throws {
            let created: OpaquePointer?
            switch item {
            case .standard(let nid, let value):
                created = X509V3_EXT_nconf_nid(nil, &context, nid, value)
            case .custom(let oid, let critical, let value):
                created = try customExtension(oid: oid, critical: critical, value: value)
            }
            guard let created else {
                throw SigningError.failedCall("creating extension \(item)")
            }
            defer { X509_EXTENSION_free(created) }
            // X509_add_ext copies the extension.
            guard X509_add_ext(certificate, created, -1) == 1 else {
                throw SigningError.failedCall("X509_add_ext(\(item))")
            }
        }

        private static func customExtension(oid: String, critical: Bool, value: [UInt8]) throws -> OpaquePointer? {
            guard let object = OBJ_txt2obj(oid, 1) else {
                throw SigningError.invalidArgument(
                    .notAnObjectIdentifier(oid), openSSLReason: OpenSSLErrorQueue.drain())
            }
            defer { ASN1_OBJECT_free(object) }
            guard let octets = ASN1_OCTET_STRING_new() else {
                throw SigningError.failedCall("ASN1_OCTET_STRING_new")
            }
            defer { ASN1_OCTET_STRING_free(octets) }
            guard ASN1_OCTET_STRING_set(octets, value, Int32(value.count)) == 1 else {
                throw SigningError.failedCall("ASN1_OCTET_STRING_set")
            }
            // X509_EXTENSION_create_by_OBJ copies the object and the value.
            return X509_EXTENSION_create_by_OBJ(nil, object, critical ? 1 : 0, octets)
        }
    }
#endif
