import Foundation
import StoreTestControls
import StoreWire
import Testing

@testable import MockStoreCommand
@testable import MockStoreHTTP
@testable import MockStoreServer
@testable import StoreKitCatalogue

/// The billing test controls: the `.storekit` file's three billing settings as defaults, the controls over them,
/// and `mockstore control`'s words for them.
@Suite struct BillingControlTests {
    static let subscriptions = Repository.root + "/Tests/Fixtures/Subscriptions.storekit"

    static func router(_ adjust: (inout StoreKitConfiguration) -> Void = { _ in }) throws -> (
        MockStoreRouter, TemporaryDirectory
    ) {
        let directory = try TemporaryDirectory()
        var catalogue = try StoreKitConfiguration.load(contentsOf: subscriptions)
        adjust(&catalogue)
        let store = MockStore(
            configuration: .init(
                catalogue: catalogue, bundleId: "ai.voicedebrief.app",
                signer: JWSTransactionSigner.hs256(secret: Array("s".utf8)), clock: ManualClock(fixedDate)),
            database: try TransactionStore(path: directory.file("store.sqlite")))
        return (MockStoreRouter(store: store), directory)
    }

    static func billing(_ router: MockStoreRouter, post body: String? = nil) -> (Int, TestBillingSettingsBody?) {
        let response = router.respond(
            to: HTTPRequest(
                method: body == nil ? "GET" : "POST", path: TestControls.updateBillingSettings.path(),
                body: Array((body ?? "").utf8)))
        return (response.status, try? JSONDecoder().decode(TestBillingSettingsBody.self, from: Data(response.body)))
    }

    @Test func theStoreKitFilesBillingSettingsAreTheDefaults() throws {
        let (off, _) = try Self.router()
        #expect(
            Self.billing(off).1
                == TestBillingSettingsBody(
                    billingRetryOnRenewal: false, gracePeriodEnabled: false, billingIssueMessagesEnabled: false,
                    productsNotForSale: []))
        let (on, _) = try Self.router {
            $0.settings.renewalBillingIssuesEnabled = true
            $0.settings.billingGracePeriodEnabled = true
            $0.settings.billingIssuesEnabled = true
        }
        #expect(
            Self.billing(on).1
                == TestBillingSettingsBody(
                    billingRetryOnRenewal: true, gracePeriodEnabled: true, billingIssueMessagesEnabled: true,
                    productsNotForSale: []))
    }

    @Test func controlsOverrideTheDefaultsAndResetRestoresThem() throws {
        let (router, _) = try Self.router { $0.settings.billingGracePeriodEnabled = true }
        let (status, body) = Self.billing(
            router, post: #"{"billingRetryOnRenewal": true, "gracePeriodEnabled": false}"#)
        #expect(status == 200 && body?.billingRetryOnRenewal == true && body?.gracePeriodEnabled == false)
        let (_, off) = Self.billing(router, post: #"{"productId": "com.example.pro.monthly", "forSale": false}"#)
        #expect(off?.productsNotForSale == ["com.example.pro.monthly"] && off?.billingRetryOnRenewal == true)
        let (_, back) = Self.billing(router, post: #"{"productId": "com.example.pro.monthly", "forSale": true}"#)
        #expect(back?.productsNotForSale == [])
        _ = router.respond(to: HTTPRequest(method: "POST", path: TestControls.reset.path()))
        #expect(
            Self.billing(router).1?.gracePeriodEnabled == true && Self.billing(router).1?.billingRetryOnRenewal == false
        )
    }

    @Test func takingAProductOffSaleNeedsAnAutoRenewableOfTheCatalogue() throws {
        let (router, _) = try Self.router()
        #expect(Self.billing(router, post: #"{"productId": "nope", "forSale": false}"#).0 == 400)
        #expect(Self.billing(router, post: #"{"productId": "com.example.pro.monthly"}"#).0 == 400)
        #expect(Self.billing(router, post: #"{"billingRetryOnRenewal": "yes"}"#).0 == 400)
    }

    static func control(_ arguments: [String]) throws -> ControlInvocation {
        guard
            case .control(let invocation) = try MockStoreCommandLine.parse(
                ["control", "--url", "http://127.0.0.1:1"] + arguments, environment: [:])
        else { throw UsageError("not a control") }
        return invocation
    }

    @Test func billingControlCommandsMapToTheirRequests() throws {
        let cases: [([String], String, String, String?)] = [
            (
                ["billing-retry", "on"], "POST", TestControls.updateBillingSettings.path(),
                #"{"billingRetryOnRenewal":true}"#
            ),
            (
                ["grace-period", "off"], "POST", TestControls.updateBillingSettings.path(),
                #"{"gracePeriodEnabled":false}"#
            ),
            (
                ["billing-issues", "on"], "POST", TestControls.updateBillingSettings.path(),
                #"{"billingIssueMessagesEnabled":true}"#
            ),
            (
                ["for-sale", "p", "off"], "POST", TestControls.updateBillingSettings.path(),
                #"{"forSale":false,"productId":"p"}"#
            ),
            (["billing"], "GET", TestControls.billingSettings.path(), nil),
            (["price-increase", "7"], "POST", TestControls.priceIncrease.path(.init(subscription: "7")), "{}"),
            (
                ["price-increase", "7", "--price", "10.99", "--no-consent"], "POST",
                TestControls.priceIncrease.path(.init(subscription: "7")), #"{"needsConsent":false,"price":10990}"#
            ),
            (
                ["consent-price-increase", "7"], "POST",
                TestControls.consentToPriceIncrease.path(.init(subscription: "7")), nil
            ),
            (
                ["decline-price-increase", "7"], "POST",
                TestControls.declinePriceIncrease.path(.init(subscription: "7")), nil
            ),
            (
                ["recover", "com.example.pro.monthly"], "POST",
                TestControls.recoverBilling.path(.init(subscription: "com.example.pro.monthly")), nil
            ),
        ]
        for (arguments, method, path, body) in cases {
            let invocation = try Self.control(arguments)
            #expect(invocation.method == method && invocation.path == path, "\(arguments)")
            if let body {
                let sent = try JSONDecoder().decode(JSONValue.self, from: Data(invocation.body ?? []))
                #expect(sent == (try JSONDecoder().decode(JSONValue.self, from: Data(body.utf8))), "\(arguments)")
            }
        }
    }

    @Test(arguments: [
        ["price-increase", "a/b"], ["price-increase", "7", "--price", "0"], ["billing-retry", "maybe"],
    ])
    func badBillingControlWordsAreUsageErrors(arguments: [String]) {
        #expect(throws: UsageError.self) { try Self.control(arguments) }
    }
}
