import Foundation
import Testing

/// Apple's own library against the real binary's subscriptions: Tests/Interop/verify_subscriptions.py, run as a test
/// when the library is installed.
@Suite struct SubscriptionInteropTests {
    @Test(.enabled(if: applesPythonLibraryIsInstalled, "python3 with app-store-server-library is not installed"))
    func applesLibraryVerifiesEverySubscriptionStepAndReadsTheSubscriptionEndpoints() async throws {
        let (status, text) = try await runInteropScript(Repository.root + "/Tests/Interop/verify_subscriptions.py")
        #expect(status == 0, "verify_subscriptions.py failed:\n\(text)")
        for line in [
            "ok: verify_and_decode_notification accepts DID_FAIL_TO_RENEW GRACE_PERIOD",
            "ok: verify_and_decode_notification accepts DID_RENEW BILLING_RECOVERY",
            "ok: PRICE_INCREASE ACCEPTED: priceIncreaseStatus 1",
            "ok: REFUND_REVERSED: active again, the revocation cleared",
            "ok: get_all_subscription_statuses: two groups, both active, every signed item verifies",
            "ok: extend_subscription_renewal_date succeeds; RENEWAL_EXTENDED carries the new expiresDate",
            "ok: RENEWAL_EXTENSION SUMMARY: Apple's summary (1 succeeded, 0 failed), no data",
            "ok: get_status_of_subscription_renewal_date_extensions: complete, 1 succeeded",
            "ok: an expired subscription is APIError.SUBSCRIPTION_EXTENSION_INELIGIBLE",
            "ok: a third extension in 365 days is APIError.SUBSCRIPTION_EXTENSION_INELIGIBLE",
            "ok: get_status_of_subscription_renewal_date_extensions: taken, not complete yet",
            "ok: fifty years on, Apple's verifier still accepts a transaction (the chain checked at its signedDate)",
            "ok: OFFER_REDEEMED: the renewal info carries offerType 3, offerIdentifier, offerDiscountType, offerPeriod",
            "ok: their SUBSCRIBED notification verifies and names them by Apple's fields only",
            "ok: get_all_subscription_statuses for the second customer's transaction: their one group only",
            "ok: get_transaction_history: each customer's history holds their own transactions, never the other's",
        ] {
            #expect(text.contains(line), "missing: \(line)")
        }
    }
}
