import Signing

/// Makes a signed transaction fail verification the way a simulated `VerificationError` says (the test control
/// `fail verification --error …`): `invalidEncoding` garbles the payload so that it cannot be decoded; every other
/// error breaks the signature (one bit flipped), so the JWS no longer verifies.
enum UnverifiableJWS {
    static func make(from jws: String, failure: StoreKitFailure) -> String {
        var parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else { return jws + "!" }
        if failure.name == "invalidEncoding" {
            parts[1] = "!" + parts[1]
            return parts.joined(separator: ".")
        }
        var signature = Base64URL.decode(parts[2]) ?? []
        if signature.isEmpty {
            signature = [0x01]
        } else {
            signature[signature.count / 2] ^= 0x01
        }
        parts[2] = Base64URL.encode(signature)
        return parts.joined(separator: ".")
    }
}
