import Foundation
import StoreWire
import Testing

@testable import MockStoreCommand
@testable import MockStoreServer

/// The new options and `mockstore control`, parsed without a process.
@Suite struct SandboxCommandLineTests {
    func control(_ arguments: [String], environment: [String: String] = [:]) throws -> ControlInvocation {
        guard
            case .control(let invocation) = try MockStoreCommandLine.parse(
                ["control"] + arguments, environment: environment)
        else {
            throw UsageError("not a control")
        }
        return invocation
    }

    func body(_ invocation: ControlInvocation) -> String { String(decoding: invocation.body ?? [], as: UTF8.self) }
}

extension SandboxCommandLineTests {
    @Test func sandboxOptionsAreRead() throws {
        guard
            case .run(let options) = try MockStoreCommandLine.parse([
                "--notify", "http://127.0.0.1:9000/hook", "--notify-retry-base-ms", "25", "--notify-max-attempts", "3",
                "--notify-timeout-ms", "700", "--api-key", "K1=/a.pem", "--api-key=K2=/b.pem", "--app-apple-id", "42",
                "--bundle-version", "7",
            ])
        else {
            Issue.record("expected options")
            return
        }
        #expect(options.notifyURL == "http://127.0.0.1:9000/hook")
        #expect(options.notifyRetryBaseMilliseconds == 25)
        #expect(options.notifyMaxAttempts == 3)
        #expect(options.notifyTimeoutMilliseconds == 700)
        #expect(options.apiKeys == [.init(keyId: "K1", path: "/a.pem"), .init(keyId: "K2", path: "/b.pem")])
        #expect(options.appAppleId == 42)
        #expect(options.bundleVersion == "7")
    }

    @Test(arguments: [
        (["--notify", "ftp://example.com/"], "--notify"),
        (["--notify", "http://127.0.0.1/", "--notify-ca", "/ca.pem"], "only used with an https://"),
        (["--notify-ca", "/ca.pem"], "only used with an https://"),
        (["--notify", "http://127.0.0.1/", "--notify-max-attempts", "7"], "from 1 to 6"),
        (["--notify-retry-base-ms", "5"], "only used with --notify"),
        (["--api-key", "=x"], "KEYID=PUBLIC-KEY-FILE"),
        (["--api-key", "K=a", "--api-key", "K=b"], "given more than once"),
        (["--app-apple-id", "zero"], "--app-apple-id"),
    ])
    func badSandboxOptionsAreUsageErrors(arguments: [String], message: String) {
        let error = #expect(throws: UsageError.self) { try MockStoreCommandLine.parse(arguments) }
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
    }

    @Test func controlCommandsMapToTheirRequests() throws {
        let url = ["--url", "http://127.0.0.1:8080"]
        let cases: [([String], String, String)] = [
            (["reset"], "POST", "/test/v1/reset"),
            (["clear"], "POST", "/test/v1/clear"),
            (["transactions"], "GET", "/test/v1/transactions"),
            (["delete", "2000000000000001"], "DELETE", "/test/v1/transactions/2000000000000001"),
            (["buy", "p"], "POST", "/test/v1/purchases"),
            (["approve", "1"], "POST", "/test/v1/transactions/1/approve"),
            (["decline", "1"], "POST", "/test/v1/transactions/1/decline"),
            (["resolve", "1"], "POST", "/test/v1/transactions/1/resolve"),
            (["refund", "1"], "POST", "/test/v1/transactions/1/refund"),
            (["reverse-refund", "1"], "POST", "/test/v1/transactions/1/refund/reverse"),
            (["request-refund", "1"], "POST", "/test/v1/transactions/1/refund-request"),
            (["decline-refund", "1"], "POST", "/test/v1/transactions/1/refund-request/decline"),
            (["ask-to-buy", "on"], "POST", "/test/v1/settings"),
            (["interrupted", "off"], "POST", "/test/v1/settings"),
            (["storefront", "GBR"], "POST", "/test/v1/settings"),
            (["locale", "en_GB"], "POST", "/test/v1/settings"),
            (["settings"], "GET", "/test/v1/settings"),
            (["fail", "purchase", "--error", "x"], "POST", "/test/v1/failures"),
            (["clear-failure"], "DELETE", "/test/v1/failures"),
            (["clear-failure", "purchase"], "DELETE", "/test/v1/failures/purchase"),
            (["failures"], "GET", "/test/v1/failures"),
            (["consumption"], "GET", "/test/v1/consumption"),
            (["notifications"], "GET", "/test/v1/notifications"),
        ]
        for (arguments, method, path) in cases {
            let invocation = try control(url + arguments)
            #expect(invocation.method == method, "\(arguments)")
            #expect(invocation.path == path, "\(arguments)")
            #expect(invocation.url == "http://127.0.0.1:8080")
        }
        #expect(body(try control(url + ["ask-to-buy", "on"])) == #"{"askToBuyEnabled":true}"#)
        #expect(body(try control(url + ["interrupted", "off"])) == #"{"interruptedPurchasesEnabled":false}"#)
        #expect(
            body(try control(url + ["fail", "purchase", "--error", "purchaseNotAllowed", "--once"]))
                == #"{"api":"purchase","error":"purchaseNotAllowed","once":true}"#)
        #expect(body(try control(url + ["refund", "1", "--reason", "1"])) == #"{"revocationReason":1}"#)
        #expect(body(try control(url + ["buy", "p", "--quantity", "3"])) == #"{"productId":"p","quantity":3}"#)
        #expect(try control(["settings"], environment: ["MOCKSTORE_URL": "http://[::1]:1"]).url == "http://[::1]:1")
        #expect(try MockStoreCommandLine.parse(["control", "--help"]) == .controlHelp)
    }

    @Test(arguments: [
        ["settings"], ["--url", "http://x:1"], ["--url", "ftp://x", "settings"], ["--url", "http://x:1", "approve"],
        ["--url", "http://x:1", "approve", "1", "2"], ["--url", "http://x:1", "ask-to-buy", "maybe"],
        ["--url", "http://x:1", "fail", "purchase"], ["--url", "http://x:1", "settings", "--once"],
        ["--url", "http://x:1", "transactions", "--reason", "1"], ["--url", "http://x:1", "--bogus", "settings"],
    ])
    func badControlsAreUsageErrors(arguments: [String]) {
        #expect(throws: UsageError.self) { try MockStoreCommandLine.parse(["control"] + arguments) }
    }

    @Test func helpListsTheSandbox() {
        for text in [
            "--notify URL", "--notify-retry-base-ms", "--notify-max-attempts", "--api-key KEYID=FILE", "--app-apple-id",
            "/storekit/v1/transactions/updates", "/inApps/v2/history/{transactionId}", "/inApps/v1/lookup/{orderId}",
            "/inApps/v1/notifications/test", "/test/v1/settings", "mockstore control",
        ] {
            #expect(MockStoreCommandLine.usage.contains(text), "help mentions \(text)")
        }
    }

    @Test func storeKitErrorNamesAreReadAsStoreKitWritesThem() {
        #expect(StoreKitFailure.parse("purchaseNotAllowed")?.description == "Product.PurchaseError.purchaseNotAllowed")
        #expect(StoreKitFailure.parse("SKError.4")?.description == "SKError.Code.paymentNotAllowed")
        #expect(StoreKitFailure.parse("SKError.paymentCancelled")?.isUserCancellation == true)
        #expect(StoreKitFailure.parse("unknown")?.description == "StoreKitError.unknown")
        #expect(StoreKitFailure.parse("invalidSignature", domains: [.verificationError])?.domain == .verificationError)
        #expect(StoreKitFailure.parse("StoreKitError.nope") == nil)
        #expect(StoreKitFailure.fromCatalogue(api: .purchase, index: 2, type: "purchase")?.name == "purchaseNotAllowed")
        #expect(StoreKitFailure.fromCatalogue(api: .loadProducts, index: nil, type: nil)?.name == "unknown")
        #expect(StoreKitFailure(domain: .purchaseError, name: "productUnavailable").skErrorCode == 5)
    }
}
