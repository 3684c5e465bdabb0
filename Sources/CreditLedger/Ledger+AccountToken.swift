import Foundation

extension Ledger {
    /// This account's `appAccountToken`: the UUID sent with every purchase, by which the store's record says whose
    /// purchase it is. It is made from the account's ledger key (HMAC-SHA256 of a fixed label, cut to a version 4
    /// UUID), so every device of the account has the same one without keeping another file, an account made before
    /// tokens existed has one too, and nobody can work the key out from it. Nil for a ledger made before signing.
    public var accountToken: UUID? {
        guard let authenticator else { return nil }
        var bytes = Array(authenticator.authenticationCode(for: Array(Ledger.accountTokenLabel.utf8)).prefix(16))
        guard bytes.count == 16 else { return nil }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    /// What the account token is the MAC of.
    static let accountTokenLabel = "voicedebrief-credit appAccountToken v1"
}
