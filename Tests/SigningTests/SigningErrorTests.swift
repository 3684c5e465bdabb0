import Signing
import Testing

@Suite struct SigningErrorTests {}

extension SigningErrorTests {
    @Test func diagnosticDescriptionSaysWhatWhereAndWhy() {
        let error = SigningError(code: .invalidKey, message: "key is bad", openSSLReason: "error:1:lib::reason")
        #expect(
            error.diagnosticDescription.hasPrefix("key is bad [invalidKey] at SigningTests/SigningErrorTests.swift:"))
        #expect(error.diagnosticDescription.hasSuffix("; OpenSSL: error:1:lib::reason"))
        let plain = SigningError(code: .fileSystem, message: "no disk")
        #expect(!plain.diagnosticDescription.contains("OpenSSL"))
    }

    /// What reaches a user is the message alone: no source location, code or OpenSSL reason (issue 13).
    @Test func descriptionIsThePlainMessage() {
        let error = SigningError(code: .invalidKey, message: "key is bad", openSSLReason: "error:1:lib::reason")
        #expect(error.description == "key is bad")
        #expect("\(error)" == "key is bad")
        #expect(!"\(error)".contains(".swift:"))
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
