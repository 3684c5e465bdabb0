// Linux only, as TestCertificateAuthority is.
#if !canImport(CryptoKit)
    import DurableFiles
    import Foundation

    extension TestCertificateAuthority {
        /// The file names ``write(to:fileSystem:)`` uses and ``read(from:)`` expects.
        public enum FileName {
            /// The root certificate, PEM.
            public static let rootPEM = "root.pem"
            /// The root certificate, DER (to pin in verifiers that take DER, such as Apple's).
            public static let rootDER = "root.der"
            /// The intermediate certificate, PEM.
            public static let intermediatePEM = "intermediate.pem"
            /// The leaf certificate, PEM.
            public static let leafPEM = "leaf.pem"
            /// The root's private key, PKCS#8 PEM, mode 0600.
            public static let rootKey = "root.key"
            /// The intermediate's private key, PKCS#8 PEM, mode 0600.
            public static let intermediateKey = "intermediate.key"
            /// The leaf's private key, PKCS#8 PEM, mode 0600.
            public static let leafKey = "leaf.key"
        }

        /// Writes the CA to `directory`, creating it (mode 0700) if needed.
        ///
        /// Certificates go to `root.pem`, `intermediate.pem`, `leaf.pem` and `root.der` (mode 0644 before the umask);
        /// private keys, as PKCS#8 PEM, to `root.key`, `intermediate.key` and `leaf.key` through ``KeyFile`` (mode
        /// 0600). Every file is written atomically and durably, through `fileSystem`.
        public func write(to directory: String, fileSystem: any FileSystem = SystemFileSystem()) throws {
            try FileIO.createDirectory(directory, mode: 0o700, fileSystem: fileSystem)
            let certificates: [(String, [UInt8])] = [
                (FileName.rootPEM, Array(root.pemRepresentation.utf8)),
                (FileName.rootDER, root.derRepresentation),
                (FileName.intermediatePEM, Array(intermediate.pemRepresentation.utf8)),
                (FileName.leafPEM, Array(leaf.pemRepresentation.utf8)),
            ]
            for (name, bytes) in certificates {
                try FileIO.writeAtomically(bytes, to: Self.path(directory, name), mode: 0o644, fileSystem: fileSystem)
            }
            let keys: [(String, P256PrivateKey)] = [
                (FileName.rootKey, rootKey),
                (FileName.intermediateKey, intermediateKey),
                (FileName.leafKey, leafKey),
            ]
            for (name, key) in keys {
                try KeyFile.write(
                    Array(key.pemRepresentation.utf8), to: Self.path(directory, name), fileSystem: fileSystem)
            }
        }

        /// Reads a CA written by ``write(to:fileSystem:)``.
        ///
        /// - Throws: ``SigningError`` if a file is missing or malformed, a key file is readable by others
        ///   (`insecureKeyFile`), `root.der` and `root.pem` differ, or a key does not belong to its certificate.
        public static func read(from directory: String) throws -> TestCertificateAuthority {
            func certificate(_ name: String) throws -> Certificate {
                let text = String(decoding: try FileIO.readFile(path(directory, name)), as: UTF8.self)
                return try Certificate(pemRepresentation: text)
            }
            func key(_ name: String, for certificate: Certificate) throws -> P256PrivateKey {
                let filePath = path(directory, name)
                let key = try P256PrivateKey(
                    pemRepresentation: String(decoding: try KeyFile.read(filePath), as: UTF8.self))
                guard try key.publicKey.derRepresentation == certificate.publicKey().derRepresentation else {
                    throw SigningError.invalidKey(
                        .notTheCertificatesKey(keyFile: filePath, certificate: certificate.name))
                }
                return key
            }
            let root = try certificate(FileName.rootPEM)
            let rootDERPath = path(directory, FileName.rootDER)
            guard try FileIO.readFile(rootDERPath) == root.derRepresentation else {
                throw SigningError.invalidCertificate(
                    .rootCopiesDiffer(derFile: rootDERPath, pemFile: path(directory, FileName.rootPEM)))
            }
            let intermediate = try certificate(FileName.intermediatePEM)
            let leaf = try certificate(FileName.leafPEM)
            return TestCertificateAuthority(
                root: root,
                rootKey: try key(FileName.rootKey, for: root),
                intermediate: intermediate,
                intermediateKey: try key(FileName.intermediateKey, for: intermediate),
                leaf: leaf,
                leafKey: try key(FileName.leafKey, for: leaf)
            )
        }

        private static func path(_ directory: String, _ name: String) -> String {
            directory.hasSuffix("/") ? directory + name : directory + "/" + name
        }
    }
#endif
