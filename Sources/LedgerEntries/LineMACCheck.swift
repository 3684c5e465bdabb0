import Signing

/// The check every signed line gets as a ledger reads it: its MAC is HMAC-SHA256 of its exact bytes (up to the
/// `mac` field) under the account's key. A line that fails is one changed after it was written, and nothing the
/// ledger does may rest on it (a balance shown, an append chained after it).
///
/// One ``HMACSHA256`` context per thread (they are not shareable): ``makeContext()`` makes one for each reader.
package struct LineMACCheck: Sendable {
    /// Why a line whose MAC is not its bytes' does not verify.
    static let mismatch = "its MAC does not match its bytes"

    let key: [UInt8]

    /// A context for one thread's lines.
    func makeContext() throws -> HMACSHA256 { try HMACSHA256(key: key) }

    /// Why `line` (its bytes, no newline), whose entry has `mac`, does not verify with `context`, or nil when it does.
    /// `signed` says whether the file's lines carry MACs (a ledger made before signing has none, and is left to
    /// `credit upgrade`).
    package static func problem(
        _ line: UnsafeBufferPointer<UInt8>, mac: ChainField?, signed: Bool, context: HMACSHA256
    ) -> String? {
        guard let mac else { return signed ? "it carries no MAC" : nil }
        guard case .digest(let expected) = mac else { return "its MAC is not one the ledger writes" }
        return problem(line, digest: expected, context: context)
    }

    /// ``problem(_:mac:signed:context:)`` for a line whose `mac` is the digest `expected` (every line the ledger
    /// writes): no optional field made and taken apart on the way.
    @inline(__always)
    package static func problem(
        _ line: UnsafeBufferPointer<UInt8>, digest expected: ChainDigest, context: HMACSHA256
    )
        -> String?
    {
        guard let prefix = EntryCodec.macCoveredPrefix(of: line) else { return "its MAC is not one the ledger writes" }
        var code = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let matches = withUnsafeMutableBytes(of: &code) { output in
            context.authenticationCode(
                for: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: line[0..<prefix])), into: output)
            return ChainDigest(bytes: output.baseAddress!).equalsInConstantTime(expected)
        }
        return matches ? nil : LineMACCheck.mismatch
    }
}
