import Foundation
import Testing

/// Apple's own verifier against the real binary's partial refunds: Tests/Interop/verify_prorated_refund.py, run as a
/// test when the library is installed.
@Suite struct ProratedRefundInteropTests {
    @Test(.enabled(if: applesPythonLibraryIsInstalled, "python3 with app-store-server-library is not installed"))
    func applesVerifierAcceptsTheProratedRefundNotificationAndItsTransaction() async throws {
        let (status, text) = try await runInteropScript(Repository.root + "/Tests/Interop/verify_prorated_refund.py")
        #expect(status == 0, "verify_prorated_refund.py failed:\n\(text)")
        #expect(text.contains("ok: the prorated REFUND's transaction carries REFUND_PRORATED and 50000"))
        #expect(text.contains("ok: GRANT_PRORATED with 25% consumed refunds the unconsumed 75%"))
    }
}
