// OpenSSL only, for Linux: the app does not need it, and Apple platforms have no OpenSSL to link.
#if !canImport(CryptoKit)
    import COpenSSL

    /// Access to OpenSSL's per-thread error queue.
    ///
    /// The queue is thread-local and the library reads it right after the failing call on the same thread (there is no
    /// `await` in between), so the reasons belong to that call.
    enum OpenSSLErrorQueue {
        /// Removes every queued error and returns their reason strings joined with "; ", or nil if the queue was empty.
        static func drain() -> String? {
            var reasons: [String] = []
            while true {
                let code = ERR_get_error()
                if code == 0 {
                    break
                }
                // 256 bytes is the size OpenSSL's own ERR_error_string uses.
                var buffer = [CChar](repeating: 0, count: 256)
                buffer.withUnsafeMutableBufferPointer { pointer in
                    ERR_error_string_n(code, pointer.baseAddress, pointer.count)
                }
                reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
        }

        /// Discards queued errors after a call whose failure is an expected answer (a signature that does not verify),
        /// so they do not show up in a later, unrelated error.
        static func clear() {
            ERR_clear_error()
        }
    }

    extension SigningError {
        /// An OpenSSL call failed unexpectedly: drains this thread's OpenSSL error queue into the error, so the reasons
        /// are reported here and do not leak into a later, unrelated failure.
        static func failedCall(_ call: String) -> SigningError {
            .openSSLFailure(call: call, openSSLReason: OpenSSLErrorQueue.drain())
        }
    }
#endif
