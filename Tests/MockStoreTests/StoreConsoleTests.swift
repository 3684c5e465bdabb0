import Foundation
import MockStoreTesting
import StoreTestControls
import StoreWire
import TestSupport
import Testing

@testable import MockStoreHTTP
@testable import MockStoreServer

/// The console (`GET /console`, issue 36 item 6): a page for a person, drawn from the store's data, escaped, fetching
/// nothing from elsewhere; and, in headless Chromium, its "Refund" button refunds through the test controls.
@Suite struct StoreConsoleTests {
    static let credit = "ai.voicedebrief.app.credit.500"
    static let hostileName = "<script>alert(1)</script>"

    /// An in-process store and router (two products), without a socket.
    let inProcess: MockStoreRouterTests

    init() throws { inProcess = try MockStoreRouterTests() }

    func send(_ method: String, _ path: String, _ body: String = "", customer: String? = nil) -> HTTPResponse {
        let headers = customer.map { [HTTPHeader(MockCustomerHeader.name, $0)] } ?? []
        return inProcess.router.respond(
            to: HTTPRequest(method: method, path: path, headers: headers, body: Array(body.utf8)))
    }

    func console() throws -> (response: HTTPResponse, html: String) {
        let response = send("GET", TestControls.console.path())
        try #require(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        return (response, String(decoding: response.body, as: UTF8.self))
    }

    /// A customer's transaction, in plain words, for the hostile-data test.
    static func transaction(id: String, product: String) -> TestTransaction {
        TestTransaction(
            transactionId: id, originalTransactionId: id, orderId: "order", productId: product, type: .consumable,
            quantity: 1, price: 4990, currency: "GBP", storefront: "GBR", purchaseDate: 1_760_000_000_000,
            appAccountToken: nil, origin: .outside, status: .purchased, pendingReason: nil, finished: false,
            finishedDate: nil, revocationDate: nil, revocationReason: nil, revocationType: nil, refundRequest: nil,
            version: 1)
    }
}

extension StoreConsoleTests {
    @Test func thePageShowsTheCustomersTheirTransactionsAndNotifications() throws {
        #expect(send("POST", TestControls.addCustomer.path(), #"{"name": "alice"}"#).status == 200)
        let bought = send("POST", TestControls.buy.path(), #"{"productId": "\#(Self.credit)"}"#, customer: "alice")
        let id = try JSONDecoder().decode(TestTransactionBody.self, from: Data(bought.body)).transaction.transactionId
        let waiting = send("POST", TestControls.buy.path(), #"{"productId": "\#(Self.credit)"}"#)
        let refunded = send("POST", TestControls.refund.path(.init(transactionId: id)), "")
        #expect(refunded.status == 200, "\(String(decoding: refunded.body, as: UTF8.self))")
        #expect(waiting.status == 200)

        let (response, html) = try console()
        #expect(response.header("Content-Type") == "text/html; charset=utf-8")
        let alice = try #require(html.range(of: "Customer <bdi>alice</bdi>"), "alice's section")
        #expect(html.contains("Customer <bdi>default</bdi> (the default customer)"))
        let row = try #require(html.range(of: "<bdi>\(id)</bdi>", range: alice.upperBound..<html.endIndex))
        let rowEnd = try #require(html.range(of: "</tr>", range: row.upperBound..<html.endIndex))
        let rowText = String(html[row.lowerBound..<rowEnd.lowerBound])
        #expect(rowText.contains("<td>purchased</td>"), "\(rowText)")
        #expect(rowText.contains("refunded 100% on "), "\(rowText)")
        #expect(rowText.contains(">Reverse refund</button>"), "\(rowText)")
        #expect(html.contains("<bdi>REFUND</bdi>"), "the refund's notification")
        #expect(html.contains("no&#58; no --notify URL, recorded only"), "whether it was delivered")
        #expect(html.contains("Now on the store's clock"))
        #expect(html.contains("<li>Ask to Buy: off</li>"))
    }

    @Test func dataFromTheStoreIsShownAsTextNeverAsMarkup() {
        let customer = TestCustomer(
            name: Self.hostileName, storefront: "GBR\u{202E}", appTransactionId: "1", isDefault: false)
        let snapshot = ConsoleSnapshot(
            customers: [
                .init(
                    customer: customer,
                    transactions: [Self.transaction(id: "7", product: "\"><img src=x onerror=alert(2)>")],
                    subscriptions: [], notifications: [])
            ],
            otherNotifications: [],
            clock: TestClockBody(
                now: 0, nowISO8601: "", rate: .unrecognized("javascript:alert(3)"), timeRate: 0, factor: 1),
            settings: TestSettingsBody(
                askToBuyEnabled: false, interruptedPurchasesEnabled: false, storefront: "https://evil.example/",
                currency: "GBP", locale: "en_GB", failures: []))
        let html = ConsolePage.html(snapshot, nonce: "n0nce")
        #expect(html.contains("Customer <bdi>&lt;script&gt;alert(1)&lt;/script&gt;</bdi>"))
        #expect(!html.contains("<script>"), "only the page's own script, with its nonce")
        #expect(html.components(separatedBy: "<script").count == 2)
        #expect(!html.contains("<img"))
        #expect(html.contains("&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"))
        #expect(!html.contains("javascript:") && !html.contains("https:"))
        #expect(html.contains("GBR[U+202E]"), "a character that turns text around is shown as its code")
        #expect(html.contains("data-customer=\"&lt;script&gt;alert(1)&lt;/script&gt;\""))
    }

    @Test func theNonceNeverReadsAsPartOfAURL() {
        // In base64 one answer in a couple of hundred held `//` (or `src=`) inside its nonce.
        for _ in 0..<2_000 {
            let nonce = ConsoleRoutes.makeNonce()
            #expect(
                nonce.count == 22
                    && nonce.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) })
        }
    }

    @Test func thePageLoadsNothingFromAnyOtherOrigin() throws {
        let (response, html) = try console()
        let policy = try #require(response.header("Content-Security-Policy"))
        let nonce = try #require(
            policy.split(separator: " ").first { $0.hasPrefix("'nonce-") }.map { $0.dropFirst(7).prefix { $0 != "'" } })
        #expect(policy.hasPrefix("default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'nonce-\(nonce)'; "))
        #expect(policy.contains("connect-src 'self'") && policy.contains("base-uri 'none'"))
        #expect(!policy.contains("http") && !policy.contains("*") && !policy.contains("unsafe"))
        #expect(html.contains("<script nonce=\"\(nonce)\">") && html.contains("<style nonce=\"\(nonce)\">"))
        for reference in ["src=", "href=", "http:", "https:", "//", "url(", "@import", "<link", "<img", "<iframe"] {
            #expect(!html.contains(reference), "the page holds \(reference)")
        }
        let again = try console().response.header("Content-Security-Policy")
        #expect(again != policy, "a new nonce for each answer")
    }
}

extension StoreConsoleTests {
    /// A real store with a purchase; its console in headless Chromium (driven over the DevTools protocol by
    /// console_refund_click.py): the page does not scroll sideways at 1280 and 390 px, a click on "Refund" shows the
    /// transaction refunded, and the store, asked through TestStore's typed calls, has refunded it.
    @Test(.enabled(if: SlowStage.isOn, SlowStage.reason), .timeLimit(.minutes(10)))
    func chromiumClicksRefundInTheConsoleAndTheStoreRefunds() async throws {
        let chromium = try #require(
            ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
                FileManager.default.isExecutableFile(atPath: $0)
            }, "chromium is not installed: run scripts/install-deps.sh (apt-get install chromium)")
        let temporary = try TemporaryDirectory()
        var options = TestStore.Options()
        options.binary = try Binaries.require("mockstore")
        let store = try await TestStore.start(options)
        let id = try await store.buy(Self.credit).transaction.transactionId
        let console = store.url.absoluteString + TestControls.console.path()
        var arguments = [
            "python3", Repository.root + "/Tests/MockStoreTests/console_refund_click.py", chromium, console, id,
            temporary.file("profile"),
        ]
        if let keep = ProcessInfo.processInfo.environment["CONSOLE_SCREENSHOTS"], !keep.isEmpty {
            arguments.append(keep)
        }
        let click = try await ChildProcess.run(
            "/usr/bin/env", arguments, environment: ProcessInfo.processInfo.environment, timeout: 540)
        #expect(click.succeeded, "\(click)")
        #expect(click.stdout.contains("refunded"), "\(click.stdout)")
        #expect(click.stdout.contains("Done: Refund."), "\(click.stdout)")
        let refunded = try #require(try await store.transactions().first { $0.transactionId == id })
        #expect(refunded.revocationDate != nil, "the store has refunded it")
        let notices = try await store.notifications(of: .refund, count: 1, within: .seconds(60))
        #expect(notices.first?.transactionId == id)
    }
}
