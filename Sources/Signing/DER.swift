// OpenSSL only, for Linux: the app does not need it, and Apple platforms have no OpenSSL to link.
#if !canImport(CryptoKit)
    import COpenSSL

    /// Helpers around OpenSSL's `i2d_*` / `d2i_*` functions, which share one calling convention.
    enum DER {
        /// The pointer-to-pointer OpenSSL's `i2d_*` functions take; nil asks for the length only.
        typealias OutputCursor = UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?

        /// Runs an `i2d_*` function twice, once for the length and once to write, and returns the bytes.
        static func encode(_ what: String, _ encoder: (OutputCursor) -> Int32) throws -> [UInt8] {
            let length = encoder(nil)
            guard length > 0 else {
                throw SigningError.failedCall("DER encoding of \(what) (length query)")
            }
            var bytes = [UInt8](repeating: 0, count: Int(length))
            let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
                var cursor = buffer.baseAddress
                return encoder(&cursor)
            }
            guard written == length else {
                throw SigningError.failedCall("DER encoding of \(what) (wrote \(written) of \(length) bytes)")
            }
            return bytes
        }

        /// Runs a `d2i_*` function over `bytes` and returns the object only if it used every byte.
        ///
        /// Trailing bytes after a valid object are rejected, so one DER value cannot carry hidden extra data.
        /// - Parameters:
        ///   - failure: the error of bytes that are not the value (OpenSSL's reason given when it has one).
        ///   - decoder: calls the `d2i_*` function with the cursor and length.
        ///   - free: frees a decoded object that is rejected for trailing bytes.
        /// - Returns: the owned object; the caller must free it.
        static func decode(
            _ bytes: [UInt8],
            failure: (SigningError.DERProblem, _ openSSLReason: String?) -> SigningError,
            decoder: (UnsafeMutablePointer<UnsafePointer<UInt8>?>, Int) -> OpaquePointer?,
            free: (OpaquePointer) -> Void
        ) throws -> OpaquePointer {
            guard !bytes.isEmpty else {
                throw failure(.empty, nil)
            }
            return try bytes.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                guard let object = decoder(&cursor, buffer.count) else {
                    throw failure(.invalid, OpenSSLErrorQueue.drain())
                }
                let consumed = cursor.map { $0 - buffer.baseAddress! } ?? 0
                guard consumed == buffer.count else {
                    free(object)
                    throw failure(.trailingBytes(buffer.count - consumed), nil)
                }
                return object
            }
        }
    }
#endif
