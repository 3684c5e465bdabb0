// OpenSSL only, for Linux: the app does not need it, and Apple platforms have no OpenSSL to link.
#if !canImport(CryptoKit)
    import COpenSSL

    /// An OpenSSL memory `BIO`, owned and freed by this object; used to read and write PEM.
    final class MemoryBIO {
        let pointer: OpaquePointer

        /// An empty, writable memory BIO.
        init() throws {
            guard let method = BIO_s_mem(), let pointer = BIO_new(method) else {
                throw SigningError.failedCall("BIO_new(BIO_s_mem())")
            }
            self.pointer = pointer
        }

        deinit {
            BIO_free(pointer)
        }

        /// Everything written to the BIO so far.
        func contents() throws -> [UInt8] {
            var data: UnsafeMutablePointer<CChar>?
            let length = COpenSSL_BIO_get_mem_data(pointer, &data)
            guard length >= 0 else {
                throw SigningError.failedCall("BIO_get_mem_data")
            }
            guard length > 0, let data else {
                return []
            }
            return Array(UnsafeRawBufferPointer(start: data, count: length))
        }

        /// Calls `body` with a read-only memory BIO over the UTF-8 of `text`, valid only during the call.
        static func reading<Result>(_ text: String, _ body: (OpaquePointer) throws -> Result) throws -> Result {
            let bytes = Array(text.utf8)
            guard bytes.count <= Int(Int32.max) else {
                throw SigningError.invalidArgument(.pemTooLarge(bytes: bytes.count))
            }
            return try bytes.withUnsafeBytes { buffer in
                guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else {
                    throw SigningError.failedCall("BIO_new_mem_buf")
                }
                defer { BIO_free(bio) }
                return try body(bio)
            }
        }
    }
#endif
