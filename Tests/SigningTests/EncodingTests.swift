import Signing
import Testing

@Suite struct EncodingTests {}

extension EncodingTests {
    @Test func hexEncodesLowercase() {
        #expect(Hex.encode([]) == "")
        #expect(Hex.encode([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
    }

    @Test func hexDecodes() {
        #expect(Hex.decode("") == [])
        #expect(Hex.decode("000fa0ff") == [0x00, 0x0f, 0xa0, 0xff])
        #expect(Hex.decode("ABcd") == [0xab, 0xcd])
    }

    @Test(arguments: ["0", "abc", "0g", "zz", " 00", "00 ", "0x00", "-1"])
    func hexRejects(_ text: String) {
        #expect(Hex.decode(text) == nil)
    }

    @Test func hexRoundTripsEveryByte() {
        let bytes = (0...255).map { UInt8($0) }
        #expect(Hex.decode(Hex.encode(bytes)) == bytes)
    }

    /// RFC 4648 section 10 vectors, without padding.
    @Test(arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
        ("foobar", "Zm9vYmFy"),
    ])
    func base64URLKnownAnswers(plain: String, encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
    }

    @Test func base64URLUsesTheURLAlphabet() {
        #expect(Base64URL.encode([0xfb, 0xff, 0xbf]) == "-_-_")
        #expect(Base64URL.decode("-_-_") == [0xfb, 0xff, 0xbf])
    }

    @Test(arguments: [
        "Zg==",  // padding
        "Zm8=",  // padding
        "+/+/",  // standard alphabet
        "Zm9v\n",  // whitespace
        "Z",  // impossible length
        "Zm9vY",  // impossible length
        "Zh",  // non-zero unused bits (canonical form is Zg)
        "Zm9",  // non-zero unused bits (canonical form is Zm8)
        "Zm 9v",  // space
        "Zm9v.",  // separator
    ])
    func base64URLRejects(_ text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test func base64URLRoundTripsAllLengths() {
        for length in 0..<70 {
            let bytes = SecureRandom.bytes(length)
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes, "length \(length)")
        }
    }

    @Test func constantTimeEquals() {
        #expect(ConstantTime.equals([], []))
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([0, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
        #expect(!ConstantTime.equals([], [0]))
    }

    @Test func secureRandomGivesRequestedLengthAndVaries() {
        #expect(SecureRandom.bytes(0).isEmpty)
        let first = SecureRandom.bytes(32)
        let second = SecureRandom.bytes(32)
        #expect(first.count == 32)
        // Equal 256-bit draws would mean the generator is broken (probability 2^-256 otherwise).
        #expect(first != second)
        #expect(first != [UInt8](repeating: 0, count: 32))
    }
}
