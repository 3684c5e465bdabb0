import Foundation
import Testing

/// Apple's own library signs promotional offers for the real binary: Tests/Interop/verify_offers.py, run as a test
/// when the library is installed; it also checks Family Sharing's FAMILY_SHARED transactions and REVOKE.
@Suite struct OfferInteropTests {
    @Test(.enabled(if: applesPythonLibraryIsInstalled, "python3 with app-store-server-library is not installed"))
    func theStoreAcceptsPromotionalOffersSignedByApplesLibraryAndRefusesTamperedOnes() async throws {
        let (status, text) = try await runInteropScript(Repository.root + "/Tests/Interop/verify_offers.py")
        #expect(status == 0, "verify_offers.py failed:\n\(text)")
        for line in [
            "ok: a tampered signature is refused",
            "ok: a signature over 24 hours old is refused",
            "ok: PromotionalOfferSignatureCreator's signature is accepted",
            "ok: OFFER_REDEEMED INITIAL_BUY: offerType 2, the offer's identifier, the signed appAccountToken",
            "ok: the same nonce again is refused",
            "ok: a tampered JWS is refused",
            "ok: PromotionalOfferV2SignatureCreator's JWS is accepted",
            "ok: the same JWS again is refused",
            "ok: family-share: SUBSCRIBED with a FAMILY_SHARED transaction of the member's own, and its renewal info",
            "ok: the purchaser's refund: REVOKE, revocationType FAMILY_REVOKE, status REVOKED",
        ] {
            #expect(text.contains(line), "missing: \(line)")
        }
    }
}
