import Foundation
import Signing
import StoreWire

/// Checks the bearer token of an App Store Server API request as Apple does: an ES256 JWT with a `kid`, whose
/// claims carry `iss`, `aud` `appstoreconnect-v1`, `bid` (the store's bundle id) and an `exp` in the future (at most
/// an hour away, or an hour after `iat` when there is one); `iat` is never required. With keys, the `kid` must be
/// one of them and the signature must verify with it; without, any well-formed signature is accepted.
public struct ServerAPIAuthenticator: Sendable {
    /// Why a token was refused (the client only ever sees a 401 without a body).
    public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    /// The `aud` Apple requires.
    public static let audience = "appstoreconnect-v1"
    /// How far ahead `exp` may be.
    public static let maximumLifetime: TimeInterval = 3_600

    public var bundleId: String
    public var keys: [String: P256PublicKey]

    public init(bundleId: String, keys: [String: P256PublicKey]) {
        self.bundleId = bundleId
        self.keys = keys
    }

    /// Checks the `Authorization` header value at `now`.
    public func check(authorization: String?, now: Date) throws(Refusal) {
        guard let authorization, authorization.hasPrefix("Bearer ") else {
            throw Refusal(reason: "no Authorization: Bearer header")
        }
        let token = authorization.dropFirst("Bearer ".count).trimmingCharacters(in: .whitespaces)
        let jws: CompactJWS
        do {
            jws = try CompactJWS.parse(token)
        } catch {
            throw Refusal(reason: "the bearer token is not a compact JWS: \(error)")
        }
        guard jws.header.alg == "ES256" else { throw Refusal(reason: "alg is \(jws.header.alg), not ES256") }
        guard let kid = jws.header.kid, !kid.isEmpty else { throw Refusal(reason: "the header has no kid") }
        if let typ = jws.header.typ, typ != "JWT" { throw Refusal(reason: "typ is \(typ), not JWT") }
        guard jws.signature.count == ECDSASignatureFormat.rawByteCount else {
            throw Refusal(reason: "the signature is not an ES256 signature (64 bytes)")
        }
        if !keys.isEmpty {
            guard let key = keys[kid] else { throw Refusal(reason: "no --api-key has the kid \(kid)") }
            do {
                try jws.verifyES256(publicKey: key)
            } catch {
                throw Refusal(reason: "the signature does not verify with key \(kid)")
            }
        }
        guard case .object(let claims)? = try? JSONDecoder().decode(JSONValue.self, from: Data(jws.payload)) else {
            throw Refusal(reason: "the claims are not a JSON object")
        }
        guard case .string(let issuer)? = claims["iss"], !issuer.isEmpty else { throw Refusal(reason: "no iss") }
        guard claims["aud"] == .string(Self.audience) || claims["aud"] == .array([.string(Self.audience)]) else {
            throw Refusal(reason: "aud is not \(Self.audience)")
        }
        guard case .string(let bid)? = claims["bid"] else { throw Refusal(reason: "no bid") }
        guard bid == bundleId else { throw Refusal(reason: "bid \(bid) is not this store's bundle id \(bundleId)") }
        guard case .number(let expires)? = claims["exp"] else { throw Refusal(reason: "no numeric exp") }
        let current = now.timeIntervalSince1970
        guard expires > current else { throw Refusal(reason: "the token expired") }
        if let issuedAt = claims["iat"] {
            guard case .number(let issued) = issuedAt else { throw Refusal(reason: "iat is not a number") }
            guard issued <= current + 60 else { throw Refusal(reason: "iat is in the future") }
            guard expires - issued <= Self.maximumLifetime else {
                throw Refusal(reason: "exp is more than an hour after iat")
            }
        } else {
            guard expires - current <= Self.maximumLifetime + 60 else {
                throw Refusal(reason: "exp is more than an hour away")
            }
        }
    }
}
