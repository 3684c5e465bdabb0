import Signing
import Testing

@Suite struct SigningErrorTests {}

extension SigningErrorTests {
    @Test func descriptionSaysWhatWhereAndWhy() {
        let error = SigningError(code: .invalidKey, message: "key is bad", openSSLReason: "error:1:lib::reason")
        #expect(error.description.hasPrefix("key is bad [invalidKey] at SigningTests/SigningErrorTests.swift:"))
        #expect(error.description.hasSuffix("; OpenSSL: error:1:lib::reason"))
        let plain = SigningError(code: .fileSystem, message: "no disk")
        #expect(!plain.description.contains("OpenSSL"))
    }

    /// Equality is about the failure, not the line that raised it.
    @Test func equalityIgnoresLocation() {
        let first = SigningError(code: .invalidChain, message: "m")
        let second = SigningError(code: .invalidChain, message: "m")
        #expect(first.location != second.location)
        #expect(first == second)
        #expect(first != SigningError(code: .invalidSignature, message: "m"))
        #expect(first != SigningError(code: .invalidChain, message: "other"))
        #expect(first != SigningError(code: .invalidChain, message: "m", openSSLReason: "r"))
    }

    @Test func codesHaveReadableNames() {
        #expect(SigningError.Code.insecureKeyFile.description == "insecureKeyFile")
        #expect(SigningError.Code.malformedJWS != SigningError.Code.algorithmMismatch)
    }
}
