import Foundation
import TestSupport
import Testing

/// Whether `python3` with Apple's app-store-server-library is here (see Tests/Interop/requirements.txt).
let applesPythonLibraryIsInstalled: Bool = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import appstoreserverlibrary"]
    process.environment = RealPython.skippingShims(ProcessInfo.processInfo.environment)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    do {
        try process.run()
    } catch {
        return false
    }
    process.waitUntilExit()
    return process.terminationStatus == 0
}()

/// Runs one of Tests/Interop's scripts against the real `mockstore` binary, waiting without holding a thread of the
/// cooperative pool: its exit status and everything it printed (standard output, then standard error).
func runInteropScript(_ script: String) async throws -> (status: Int32, text: String) {
    let result = try await ChildProcess.run(
        "/usr/bin/env", ["python3", script, "--mockstore", try MockStoreHarness.binaryPath()],
        environment: ProcessInfo.processInfo.environment, timeout: 600)
    return (result.status, result.stdout + result.stderr)
}

/// Apple's own verifier against the real binary: Tests/Interop/verify_transactions.py, run as a test when
/// the library is installed (`Tests/Interop/run-interop.sh` installs it and runs the script on its own).
@Suite struct InteropTests {
    @Test(.enabled(if: applesPythonLibraryIsInstalled, "python3 with app-store-server-library is not installed"))
    func applesLibraryAcceptsTheStoresTransactionsNotificationsAndServerAPI() async throws {
        let (status, text) = try await runInteropScript(Repository.interopScript)
        #expect(status == 0, "verify_transactions.py failed:\n\(text)")
        #expect(text.contains("ok: a verifier for another bundle id rejects it with INVALID_APP_IDENTIFIER"))
        #expect(text.contains("ok: an unsigned (alg none) transaction is rejected"))
        for line in [
            "ok: AppStoreServerAPIClient.get_transaction_info reads a finished transaction, and it verifies",
            "ok: get_transaction_history (v2, filters, sort) lists both transactions",
            "ok: send_consumption_information (v2) is accepted without an error",
            "ok: send_consumption_data (v1) is accepted without an error",
            "ok: look_up_order_id(", "ok: get_refund_history lists the refunded transaction",
            "ok: verify_and_decode_notification accepts the TEST notification the store POSTed",
            "ok: get_test_notification_status lists the attempt as SUCCESS",
            "ok: verify_and_decode_notification accepts REFUND",
            "ok: verify_and_decode_notification accepts CONSUMPTION_REQUEST with its reason",
            "ok: a token signed by another key gets 401",
            // Issue 15.
            "ok: the transaction carries the customer's appTransactionId",
            "ok: deviceVerification is base64(SHA-384(deviceVerificationNonce + the device id sent))",
            "ok: the JWS header is {alg, x5c}",
            "ok: verify_and_decode_app_transaction accepts the device API's AppTransaction, with Apple's fields",
            "ok: verify_and_decode_notification accepts ONE_TIME_CHARGE with the purchase's transaction",
            "ok: get_app_transaction_info answers signedAppTransactionInfo; verify_and_decode_app_transaction accepts it",
            "ok: set_app_account_token sets the token; get_transaction_info then carries it",
            "ok: set_app_account_token refuses with APIError.INVALID_APP_ACCOUNT_TOKEN_UUID_ERROR",
            "ok: get_notification_history lists every notification the store sent",
            "ok: each history item's sendAttempts is one SUCCESS",
            "ok: the notificationType filter keeps the two ONE_TIME_CHARGEs",
            "ok: get_notification_history refuses with APIError.START_DATE_TOO_FAR_IN_PAST",
            "ok: get_notification_history refuses with APIError.MULTIPLE_FILTERS_SUPPLIED",
            "and leaves appAppleId out as the sandbox does",
            "ok: verify_and_decode_notification (Production, appAppleId checked) accepts ONE_TIME_CHARGE",
            "ok: verify_and_decode_app_transaction (Production) accepts the AppTransaction with its appAppleId",
        ] {
            #expect(text.contains(line), "interop output lacks \(line)")
        }
    }
}
