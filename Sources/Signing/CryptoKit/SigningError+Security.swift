#if canImport(CryptoKit)
    import Security

    extension SigningError {
        /// A CryptoKit or Security call failed where failure was not expected, with its `OSStatus` when it has one.
        ///
        /// The case keeps its OpenSSL name (``SigningError/openSSLFailure(call:openSSLReason:)``) so that code
        /// matching on it compiles the same on every platform; the reason slot holds the status.
        static func failedSecurityCall(_ call: String, status: OSStatus? = nil) -> SigningError {
            .openSSLFailure(call: call, openSSLReason: status.map { "OSStatus \($0)" })
        }
    }
#endif
