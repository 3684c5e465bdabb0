import Foundation
import MockStoreHTTP
import Signing
import TestSupport
import Testing

@testable import MockStoreCommand

/// Issue 35: `mockstore control`'s exit statuses agree everywhere, and what it says is in plain words. An unknown word
/// on the command line is a usage error (exit 64, nothing sent); a file that is not there, or a store that cannot be
/// reached, is a failure (exit 1) said without libcurl's or Foundation's text.
@Suite struct ControlExitStatusTests {
    /// Parses `mockstore control --url URL arguments…` (nothing listens at the URL: nothing is sent here).
    func parse(_ arguments: [String], url: String = "http://127.0.0.1:9") throws -> ControlInvocation {
        guard case .control(let invocation) = try MockStoreCommandLine.parse(["control", "--url", url] + arguments)
        else { throw SupportFailure("not a control: \(arguments)") }
        return invocation
    }
}

extension ControlExitStatusTests {
    @Test(arguments: [
        (["fail", "nosuchapi", "--error", "networkError"], "\"nosuchapi\" is not an API that can be made to fail"),
        (["fail", "purchase", "--error", "bogus"], "--error \"bogus\" is not an error purchase can fail with"),
        (["fail", "verification", "--error", "networkError"], "is not an error verification can fail with"),
        (["clear-failure", "nosuchapi"], "\"nosuchapi\" is not an API that can be made to fail"),
        (["request-refund", "1", "--reason", "BORED"], "--reason \"BORED\" is not one of UNINTENDED_PURCHASE"),
        (["refund", "1", "--reason", "7"], "--reason"),
        (["storefront", "XYZ"], "\"XYZ\" is not an App Store storefront"),
        (["customer", "add", "bob", "--storefront", "XYZ"], "\"XYZ\" is not an App Store storefront"),
        (["wait-notification", "--type", "BOGUS"], "BOGUS"),
    ])
    func anUnknownWordIsAUsageError(_ arguments: [String], _ words: String) {
        let error = #expect(throws: UsageError.self, "\(arguments)") { try parse(arguments) }
        #expect(error?.message.contains(words) == true, "\(arguments): \(error?.message ?? "")")
    }

    @Test func knownWordsStillParse() throws {
        #expect(try parse(["fail", "Purchase", "--error", "SKError.4"]).path == "/test/v1/failures")
        #expect(try parse(["fail", "verification", "--error", "invalidSignature"]).method == "POST")
        #expect(try parse(["clear-failure", "appStoreSync"]).method == "DELETE")
        #expect(try parse(["request-refund", "1", "--reason", "LEGAL"]).method == "POST")
        #expect(try parse(["refund", "1", "--reason", "1"]).method == "POST")
        #expect(try parse(["storefront", "fra"]).method == "POST")
    }

    /// A key file is read when the control runs: one that is not there is exit 1 (as every other missing file),
    /// said in words, before anything is sent.
    @Test func aKeyFileThatIsNotThereIsAFailureNotAUsageError() throws {
        let scratch = try TemporaryDirectory()
        let missingFolder = try parse(["offer-key", "K1", "/nonexistent/k.p8"]).run(timeout: 5)
        #expect(missingFolder.status == 1)
        #expect(
            missingFolder.stderr
                == "mockstore: error: cannot read the key file /nonexistent/k.p8: the folder /nonexistent does not exist\n"
        )
        let missingFile = try parse(["offer-key", "K1", scratch.file("k.p8")]).run(timeout: 5)
        #expect(missingFile.status == 1)
        #expect(missingFile.stderr.hasSuffix("k.p8: there is no such file\n"), "\(missingFile.stderr)")
        let junk = scratch.file("junk.p8")
        try Data("not a key".utf8).write(to: URL(fileURLWithPath: junk))
        let notAKey = try parse(["offer-key", "K1", junk]).run(timeout: 5)
        #expect(notAKey.status == 1)
        #expect(notAKey.stderr.contains("holds no P-256 key in PEM"), "\(notAKey.stderr)")
    }

    /// `root-certificate --out` into a folder that does not exist, or onto a folder: which, in words, not
    /// Foundation's "The operation could not be completed".
    @Test func aCertificateThatCannotBeWrittenSaysWhyInWords() throws {
        let scratch = try TemporaryDirectory()
        let root = try TestCertificateAuthority.make(validFrom: Date()).root.derRepresentation
        let noFolder = ControlInvocation.certificate(root, to: "/nonexistent/root.pem")
        #expect(noFolder.status == 1)
        #expect(
            noFolder.stderr
                == "mockstore: error: cannot write /nonexistent/root.pem: the folder /nonexistent does not exist\n")
        let ontoAFolder = ControlInvocation.certificate(root, to: scratch.path)
        #expect(ontoAFolder.stderr == "mockstore: error: cannot write \(scratch.path): it is a folder, not a file\n")
        let written = ControlInvocation.certificate(root, to: scratch.file("root.pem"))
        #expect(written.status == 0 && written.stderr.isEmpty)
        #expect(try String(contentsOfFile: scratch.file("root.pem"), encoding: .utf8).hasPrefix("-----BEGIN CERT"))
    }

    /// Nothing listening: the store's address and a question, not libcurl's "Failed to connect … after 0 ms".
    @Test func aStoreThatCannotBeReachedIsSaidInWords() throws {
        let port = try HeldPort()
        let outcome = try parse(["settings"], url: port.url).run(timeout: 10)
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr
                == "mockstore: error: cannot reach the store at \(port.url): nothing is listening there. Is the store "
                + "running?\n")
    }

    /// Every way a request can fail is said in words of the mock store's own, never the HTTP library's.
    @Test(arguments: [
        HTTPClient.Failure.Kind.invalidURL, .socketIssue, .sslIssue, .timedOut, .noResponse, .prematureClose,
        .invalidResponse, .other,
    ])
    func everyUnreachableStoreIsSaidInPlainWords(_ kind: HTTPClient.Failure.Kind) {
        let failure = HTTPClient.Failure(
            kind: kind, detail: "curl: (7) Failed to connect after 0 ms", isNoConnection: false)
        let words = ControlFailure.reason(for: failure, url: "http://127.0.0.1:1", timeout: 30)
        #expect(!words.isEmpty)
        for libraryText in ["curl", "Failed", " ms", "(7)", "error"] {
            #expect(!words.contains(libraryText), "\(kind): \(words)")
        }
    }
}
