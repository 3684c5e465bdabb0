import Signing
import Testing

@Suite struct SHA256Tests {}

extension SHA256Tests {
    /// FIPS 180-2 appendix B known answers (and the empty string).
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func knownAnswer(message: String, digest: String) {
        #expect(Hex.encode(SHA256.hash(Array(message.utf8))) == digest)
    }

    /// FIPS 180-2 appendix B.3: one million "a".
    @Test func millionA() {
        let digest = SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
        #expect(Hex.encode(digest) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func bufferOverloadMatchesArrayOverload() {
        let message = Array("The quick brown fox jumps over the lazy dog".utf8)
        let fromBuffer = message.withUnsafeBytes { SHA256.hash($0) }
        #expect(fromBuffer == SHA256.hash(message))
        #expect(Hex.encode(fromBuffer) == "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592")
        // A slice that is not at the start of its storage.
        let slice = Array("xxabc".utf8)[2...]
        let digest = slice.withUnsafeBytes { SHA256.hash($0) }
        #expect(Hex.encode(digest) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
