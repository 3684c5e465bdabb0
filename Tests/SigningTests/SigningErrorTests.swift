import Signing
import Testing

@Suite struct SigningErrorTests {}

extension SigningErrorTests {
    @Test func diagnosticDescriptionSaysWhatAndWhy() {
        let error = SigningError.invalidKey(.wrongCurve(what: "key", curve: "secp256k1"), openSSLReason: "error:1:r")
        #expect(error.diagnosticDescription == "key is on curve secp256k1, not P-256 [invalidKey]; OpenSSL: error:1:r")
        let plain = SigningError.invalidSignature(.hs256Mismatch)
        #expect(!plain.diagnosticDescription.contains("OpenSSL"))
    }

    /// What reaches a user is the words alone: no source location, code or OpenSSL reason (issue 13).
    @Test func descriptionIsThePlainWords() {
        let error = SigningError.invalidKey(.wrongCurve(what: "key", curve: "secp256k1"), openSSLReason: "error:1:r")
        #expect(error.description == "key is on curve secp256k1, not P-256")
        #expect("\(error)" == error.message)
        #expect(!"\(error)".contains(".swift:"))
        #expect(!"\(error)".contains("invalidKey"))
    }

    /// Each case says what happened; equality is about that.
    @Test func equalityIsAboutWhatHappened() {
        let first = SigningError.invalidChain(.certificateCount(2))
        #expect(first == .invalidChain(.certificateCount(2)))
        #expect(first != .invalidChain(.certificateCount(4)))
        #expect(first != .invalidChain(.x5cCount(2)))
        #expect(SigningError.invalidKey(.pointNotOnCurve) != .invalidKey(.pointNotOnCurve, openSSLReason: "r"))
    }

    /// A certificate of an `x5c` chain that is not one keeps its own kind and reason, and says which it was.
    @Test func aChainCertificateSaysWhichAndWhy() {
        let inner = SigningError.invalidCertificate(.der(.trailingBytes(3)), openSSLReason: "r")
        let error = SigningError.chainCertificate(index: 1, inner)
        #expect(error.code == .invalidCertificate)
        #expect(error.openSSLReason == "r")
        #expect(
            error.message
                == "x5c[1] is not a DER certificate: X.509 certificate: 3 unexpected bytes after the DER value")
    }

    /// A file that cannot be read is the file system's failure, carried whole and said in its words.
    @Test func fileSystemFailuresKeepTheFileError() {
        let error = #expect(throws: SigningError.self) { _ = try KeyFile.read("/no/such/key-file") }
        guard case .some(.fileSystem(let failure)) = error else {
            Issue.record("expected a file-system failure, got \(String(describing: error))")
            return
        }
        #expect(error?.message == failure.description)
        #expect(failure.path == "/no/such/key-file")
    }

    @Test func codesHaveReadableNames() {
        #expect(SigningError.Code.insecureKeyFile.description == "insecureKeyFile")
        #expect(SigningError.insecureKeyFile(path: "/k", mode: 0o644).code == .insecureKeyFile)
        #expect(SigningError.Code.malformedJWS != SigningError.Code.algorithmMismatch)
    }
}
