import Foundation
import Signing
import StoreWire
import Synchronization
import Testing

@testable import MockStoreHTTP
@testable import MockStoreServer

/// Bearer tokens for the Server API, made as Apple's libraries make them (ES256, `kid`, no `iat`).
struct ServerAPIToken {
    static let bundleId = "ai.voicedebrief.app"
    /// The key the shared stores accept (``MockStoreHarness/withShared(catalogue:_:)``): a test on one signs with it.
    static let shared: ServerAPIToken = {
        do { return try ServerAPIToken() } catch { fatalError("no P-256 key for the shared stores: \(error)") }
    }()

    var key: P256PrivateKey
    var keyId: String

    init(keyId: String = "MOCKKEY001") throws {
        key = try P256PrivateKey.generate()
        self.keyId = keyId
    }

    /// A token with these claims (nil leaves one out); `exp` defaults to 5 minutes from now.
    func make(
        bid: String? = bundleId, iss: String? = "57246542-96fe-1a63-e053-0824d011072a",
        aud: String? = "appstoreconnect-v1", expiresIn: TimeInterval? = 300, issuedAgo: TimeInterval? = nil,
        alg: String = "ES256", kid: String?? = .none, signedBy other: P256PrivateKey? = nil
    ) throws -> String {
        var claims: [String: Any] = [:]
        if let bid { claims["bid"] = bid }
        if let iss { claims["iss"] = iss }
        if let aud { claims["aud"] = aud }
        let now = Date().timeIntervalSince1970
        if let expiresIn { claims["exp"] = Int(now + expiresIn) }
        if let issuedAgo { claims["iat"] = Int(now - issuedAgo) }
        let payload = Array(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]))
        let keyID: String? = kid ?? keyId
        if alg == "HS256" {
            return try CompactJWS.sign(payload: payload, typ: "JWT", with: .hs256(secret: Array("secret".utf8)))
        }
        return try CompactJWS.sign(
            payload: payload, typ: "JWT", with: .es256(key: other ?? key, x5c: nil, keyID: keyID))
    }

    /// A token whose claims are `json` as written (to send claims of the wrong JSON type).
    func make(claimsJSON json: String) throws -> String {
        try CompactJWS.sign(payload: Array(json.utf8), typ: "JWT", with: .es256(key: key, x5c: nil, keyID: keyId))
    }

    /// `Authorization: Bearer …` for a good token.
    func header() throws -> [String: String] {
        ["Authorization": "Bearer " + (try make())]
    }

    /// Writes the public key as PEM into `directory` and returns `--api-key KEYID=FILE`.
    func option(in directory: TemporaryDirectory) throws -> [String] {
        let path = try directory.write(key.publicKey.pemRepresentation, to: "\(keyId).pem")
        return ["--api-key", "\(keyId)=\(path)"]
    }
}

/// A notification receiver for tests: the mock store's own HTTP server, in-process, recording every POST and
/// answering each with the next status of `statuses` (then 200).
final class NotificationReceiver {
    /// The handler: records bodies, answers with the planned statuses.
    final class Recorder: HTTPHandler {
        let state: Mutex<(bodies: [[UInt8]], statuses: [Int])>

        init(statuses: [Int]) {
            state = Mutex(([], statuses))
        }

        func respond(to request: HTTPRequest) -> HTTPResponse {
            let status = state.withLock { state in
                state.bodies.append(request.body)
                return state.statuses.isEmpty ? 200 : state.statuses.removeFirst()
            }
            return HTTPResponse(status: status)
        }

        func payloadTooLarge(limit: Int) -> HTTPResponse { HTTPResponse(status: 413) }
    }

    let recorder: Recorder
    let server: HTTPServer

    /// Starts listening on a free loopback port.
    init(statuses: [Int] = []) throws {
        recorder = Recorder(statuses: statuses)
        server = try HTTPServer(host: "127.0.0.1", port: 0, handler: recorder)
    }

    deinit { server.stop() }

    /// The URL to give `--notify`.
    var url: String { server.baseURL + "/notifications" }

    /// Every body received so far.
    var bodies: [[UInt8]] { recorder.state.withLock { $0.bodies } }

    /// The decoded payloads received so far (the JWS payload of each `signedPayload`).
    func payloads() throws -> [NotificationPayload] {
        try bodies.map { body in
            let signed = try JSONDecoder().decode(SignedNotificationBody.self, from: Data(body)).signedPayload
            return try JSONDecoder().decode(NotificationPayload.self, from: Data(try CompactJWS.parse(signed).payload))
        }
    }
}

/// The decoded payload of a JWS, after checking its ES256 chain against `root` at its signing date.
func verifiedES256Payload<Payload: Decodable>(
    _ jws: String, as type: Payload.Type, root: Certificate, sourceLocation: SourceLocation = #_sourceLocation
) throws -> Payload {
    let parsed = try CompactJWS.parse(jws)
    #expect(parsed.header.alg == "ES256", sourceLocation: sourceLocation)
    #expect(parsed.header.x5c?.count == 3, sourceLocation: sourceLocation)
    try parsed.verifyES256(chain: CertificateChainVerifier(trustedRoot: root), at: Date())
    return try JSONDecoder().decode(type, from: Data(parsed.payload))
}
