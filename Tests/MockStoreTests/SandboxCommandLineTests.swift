import Foundation
import StoreTestControls
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
            (["reset"], "POST", TestControls.reset.path()),
            (["clear"], "POST", TestControls.clear.path()),
            (["transactions"], "GET", TestControls.transactions.path()),
            (
                ["delete", "2000000000000001"], "DELETE",
                TestControls.deleteTransaction.path(.init(transactionId: "2000000000000001"))
            ),
            (["buy", "p"], "POST", TestControls.buy.path()),
            (["approve", "1"], "POST", TestControls.approve.path(.init(transactionId: "1"))),
            (["decline", "1"], "POST", TestControls.decline.path(.init(transactionId: "1"))),
            (["resolve", "1"], "POST", TestControls.resolve.path(.init(transactionId: "1"))),
            (["refund", "1"], "POST", TestControls.refund.path(.init(transactionId: "1"))),
            (["reverse-refund", "1"], "POST", TestControls.reverseRefund.path(.init(transactionId: "1"))),
            (["request-refund", "1"], "POST", TestControls.requestRefund.path(.init(transactionId: "1"))),
            (["decline-refund", "1"], "POST", TestControls.declineRefund.path(.init(transactionId: "1"))),
            (["ask-to-buy", "on"], "POST", TestControls.updateSettings.path()),
            (["interrupted", "off"], "POST", TestControls.updateSettings.path()),
            (["storefront", "GBR"], "POST", TestControls.updateSettings.path()),
            (["locale", "en_GB"], "POST", TestControls.updateSettings.path()),
            (["settings"], "GET", TestControls.settings.path()),
            (["fail", "purchase", "--error", "networkError"], "POST", TestControls.setFailure.path()),
            (["clear-failure"], "DELETE", TestControls.clearFailures.path()),
            (["clear-failure", "purchase"], "DELETE", TestControls.clearFailure.path(.init(api: .purchase))),
            (["failures"], "GET", TestControls.failures.path()),
            (["consumption"], "GET", TestControls.consumption.path()),
            // Every page is read, a page of the largest size at a time.
            (["notifications"], "GET", TestControls.notificationsPage(revision: nil, limit: 1_000)),
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
            DeviceAPI.updates.path(), ServerAPI.history.template.description,
            ServerAPI.lookUpOrder.template.description,
            ServerAPI.requestTestNotification.path(), TestControls.settings.path(), "mockstore control",
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

/// What `mockstore control` prints of the store's answer.
@Suite struct ControlAnswerTests {
    @Test func aJSONAnswerIsIndentedWithItsKeysSorted() {
        let answer = #"{"b":1796239257843,"a":[true,null,"x/y"],"c":0.5}"#
        #expect(
            ControlInvocation.pretty(Array(answer.utf8))
                == "{\n  \"a\" : [\n    true,\n    null,\n    \"x/y\"\n  ],\n  \"b\" : 1796239257843,\n  \"c\" : 0.5\n}\n"
        )
    }

    @Test func anAnswerThatIsNotJSONIsPrintedAsItCame() {
        #expect(ControlInvocation.pretty(Array("not json {".utf8)) == "not json {\n")
        #expect(ControlInvocation.pretty([]) == "")
    }
}
