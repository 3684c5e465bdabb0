import Foundation
import StoreTestControls
import StoreWire
import Testing

@testable import MockStoreCommand
@testable import MockStoreHTTP
@testable import MockStoreServer
@testable import Signing

/// A receiver on `https://127.0.0.1`, its certificate issued by a CA made for the test (OpenSSL, through
/// Signing): what libcurl trusts with `--notify-ca`, and refuses without it.
final class HTTPSReceiver {
    let recorder = NotificationReceiver.Recorder(statuses: [])
    let server: HTTPServer
    /// The test CA's root, PEM: what `--notify-ca` names.
    let caPEM: String

    init() throws {
        let now = Date()
        let authority = try TestCertificateAuthority.make(
            commonNamePrefix: "HTTPS Receiver Test", validFrom: now - 3_600)
        let key = try P256PrivateKey.generate()
        // subjectAltName = IP:127.0.0.1 (GeneralNames { iPAddress 7f000001 }): the name libcurl checks.
        let loopback: [UInt8] = [0x30, 0x06, 0x87, 0x04, 0x7f, 0x00, 0x00, 0x01]
        let certificate = try CertificateBuilder.issue(
            subject: [("CN", "127.0.0.1")], subjectKey: key.publicKey,
            issuer: .init(certificate: authority.root, key: authority.rootKey), notBefore: now - 3_600,
            notAfter: now + 86_400, extensions: [.custom(oid: "2.5.29.17", critical: false, value: loopback)])
        caPEM = PEM.encode(label: "CERTIFICATE", der: authority.root.derRepresentation)
        server = try HTTPServer(
            host: "127.0.0.1", port: 0,
            tls: TLSIdentity(
                certificatePEM: PEM.encode(label: "CERTIFICATE", der: certificate.derRepresentation),
                privateKeyPEM: key.pemRepresentation),
            handler: recorder)
    }

    deinit { server.stop() }

    var url: String { server.baseURL + "/notifications" }
    var bodies: [[UInt8]] { recorder.state.withLock { $0.bodies } }
    var trusted: HTTPClient.TrustedCertificates {
        get throws { try HTTPClient.TrustedCertificates(pem: Array(caPEM.utf8)) }
    }
}

@Suite struct HTTPSNotificationTests {
    let directory: TemporaryDirectory
    let token: ServerAPIToken

    init() throws {
        directory = try TemporaryDirectory("mockstore-https")
        token = try ServerAPIToken()
    }

    @Test func theClientTrustsTheGivenCAAndNoOther() throws {
        let receiver = try HTTPSReceiver()
        #expect(receiver.url.hasPrefix("https://127.0.0.1:"))
        let response = try HTTPClient.send("POST", receiver.url, body: Array("hi".utf8), trusting: try receiver.trusted)
        #expect(response.status == 200)
        #expect(receiver.bodies == [Array("hi".utf8)])
        do {
            _ = try HTTPClient.send("POST", receiver.url, body: Array("again".utf8))
            Issue.record("an untrusted certificate was accepted")
        } catch {
            #expect(error.sendAttemptResult == .tlsIssue)
        }
        #expect(receiver.bodies.count == 1)
    }

    @Test func aConnectionIsKeptForTheNextRequest() throws {
        let receiver = try HTTPSReceiver()
        let connection = try HTTPConnection(trusting: try receiver.trusted)
        for index in 0..<3 {
            #expect(try connection.send("POST", receiver.url, body: [UInt8(index)]).status == 200)
        }
        #expect(connection.connectionsOpened == 1, "three requests, one connection (one TLS handshake)")
        #expect(receiver.bodies == [[0], [1], [2]])
    }

    @Test func aNotificationArrivesOverHTTPSWithNotifyCA() async throws {
        let receiver = try HTTPSReceiver()
        let caFile = directory.file("ca.pem")
        try Data(receiver.caPEM.utf8).write(to: URL(fileURLWithPath: caFile))
        let store = try await MockStoreHarness.start(
            dataDirectory: directory.file("data"),
            extraArguments: ["--notify", receiver.url, "--notify-ca", caFile, "--notify-retry-base-ms", "20"])
        let requested = try await store.request(
            "POST", ServerAPI.requestTestNotification.path(), headers: try token.header())
        #expect(requested.status == 200)
        try await eventually("the TEST notification arrives over https") { receiver.bodies.count == 1 }
        let signed = try JSONDecoder().decode(SignedNotificationBody.self, from: Data(receiver.bodies[0]))
        #expect(!signed.signedPayload.isEmpty)
        try await eventually("it is recorded as delivered") {
            let records = try await store.get(TestControls.notifications.path()).decoded(TestNotificationsBody.self)
            return records.notifications.first?.status == .delivered
                && records.notifications.first?.sendAttempts.map(\.sendAttemptResult) == [.success]
        }
        #expect(try await store.stop() == 0)
    }

    @Test func withoutNotifyCATheReceiverIsNotTrustedAndTheAttemptFails() async throws {
        let receiver = try HTTPSReceiver()
        let store = try await MockStoreHarness.start(
            dataDirectory: directory.file("data"),
            extraArguments: [
                "--notify", receiver.url, "--notify-retry-base-ms", "10", "--notify-max-attempts", "2",
                // Retries happen in production only (issue 15).
                "--environment", "production",
            ])
        let requested = try await store.request(
            "POST", ServerAPI.requestTestNotification.path(), headers: try token.header())
        #expect(requested.status == 200)
        try await eventually("the tries run out") {
            try await store.get(TestControls.notifications.path()).decoded(TestNotificationsBody.self).notifications
                .first?
                .status == .failed
        }
        let record = try #require(
            try await store.get(TestControls.notifications.path()).decoded(TestNotificationsBody.self).notifications
                .first)
        #expect(record.sendAttempts.map(\.sendAttemptResult) == [.tlsIssue, .tlsIssue])
        #expect(receiver.bodies.isEmpty, "nothing was delivered to an untrusted receiver")
        #expect(try await store.stop() == 0)
    }

    @Test func notifyCAIsCheckedBeforeTheStoreStarts() async throws {
        // The usage errors are in SandboxCommandLineTests; here what only a start can tell.
        guard case .run(let options) = try MockStoreCommandLine.parse(["--notify", "https://h/", "--notify-ca", "/c"])
        else {
            Issue.record("expected options")
            return
        }
        #expect(options.notifyURL == "https://h/" && options.notifyCAFile == "/c")
        let notPEM = directory.file("not.pem")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: notPEM))
        for (file, message) in [(notPEM, "holds no PEM certificate"), (directory.file("missing.pem"), "cannot read")] {
            let outcome = try await MockStoreHarness.startInProcess([
                "--data", directory.file("data"), "--catalogue", Repository.catalogue, "--notify",
                "https://127.0.0.1:9/hook", "--notify-ca", file,
            ])
            #expect(outcome.status == 1)
            #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        }
    }
}
