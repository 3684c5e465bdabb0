import Foundation
import StoreTestControls
import StoreWire
import Testing

@testable import MockStoreHTTP
@testable import MockStoreServer

/// The declared contract: path templates build and match paths, and the router answers every declared endpoint.
@Suite struct EndpointTests {
    /// An endpoint's method and template, whatever its body types.
    struct Declared: Hashable, CustomStringConvertible {
        var method: String
        var template: String
        /// The template's parameter names, the stored properties of the endpoint's parameters type, in order, and
        /// the query names that type reads.
        var parameterNames: [String] = []
        var pathProperties: [String] = []
        var queryNames: [String] = []
        var description: String { method + " " + template }
    }

    static func declared<Request, Response, Path>(_ endpoint: Endpoint<Request, Response, Path>) -> Declared {
        let names = endpoint.template.parameterNames
        return Declared(
            method: endpoint.method.rawValue, template: endpoint.template.description, parameterNames: names,
            pathProperties: Mirror(reflecting: Path(pathValues: names, query: { _ in [] })).children.compactMap(
                \.label),
            queryNames: Path.queryNames)
    }

    /// Every endpoint of the four catalogues.
    static let everyEndpoint: [Declared] = [
        declared(DeviceAPI.products),
        declared(DeviceAPI.purchase),
        declared(DeviceAPI.purchaseStatus),
        declared(DeviceAPI.unfinished),
        declared(DeviceAPI.updates),
        declared(DeviceAPI.all),
        declared(DeviceAPI.currentEntitlements),
        declared(DeviceAPI.finish),
        declared(DeviceAPI.appTransaction),
        declared(DeviceAPI.storefront),
        declared(DeviceAPI.subscriptionStatus),
        declared(DeviceAPI.introOfferEligibility),
        declared(DeviceAPI.messages),
        declared(ServerAPI.transactionInfo),
        declared(ServerAPI.appTransactionInfo),
        declared(ServerAPI.setAppAccountToken),
        declared(ServerAPI.notificationHistory),
        declared(ServerAPI.historyV1),
        declared(ServerAPI.history),
        declared(ServerAPI.refundHistory),
        declared(ServerAPI.lookUpOrder),
        declared(ServerAPI.sendConsumptionV1),
        declared(ServerAPI.sendConsumption),
        declared(ServerAPI.finishTransaction),
        declared(ServerAPI.requestTestNotification),
        declared(ServerAPI.testNotificationStatus),
        declared(ServerAPI.subscriptionStatuses),
        declared(ServerAPI.extendRenewalDate),
        declared(ServerAPI.massExtendRenewalDate),
        declared(ServerAPI.massExtensionStatus),
        declared(SandboxAPI.rootCertificate),
        declared(TestControls.reset),
        declared(TestControls.clear),
        declared(TestControls.transactions),
        declared(TestControls.deleteTransaction),
        declared(TestControls.buy),
        declared(TestControls.approve),
        declared(TestControls.decline),
        declared(TestControls.resolve),
        declared(TestControls.refund),
        declared(TestControls.reverseRefund),
        declared(TestControls.requestRefund),
        declared(TestControls.declineRefund),
        declared(TestControls.settings),
        declared(TestControls.updateSettings),
        declared(TestControls.failures),
        declared(TestControls.setFailure),
        declared(TestControls.clearFailures),
        declared(TestControls.clearFailure),
        declared(TestControls.consumption),
        declared(TestControls.notifications),
        declared(TestControls.customers),
        declared(TestControls.addCustomer),
        declared(TestControls.removeCustomer),
        declared(TestControls.clock),
        declared(TestControls.advanceClock),
        declared(TestControls.setClockRate),
        declared(TestControls.subscriptions),
        declared(TestControls.renew),
        declared(TestControls.expire),
        declared(TestControls.autoRenew),
        declared(TestControls.change),
        declared(TestControls.billingSettings),
        declared(TestControls.updateBillingSettings),
        declared(TestControls.recoverBilling),
        declared(TestControls.priceIncrease),
        declared(TestControls.consentToPriceIncrease),
        declared(TestControls.declinePriceIncrease),
        declared(TestControls.registerOfferKey),
        declared(TestControls.offerKeys),
        declared(TestControls.familyShare),
        declared(TestControls.familyRevoke),
        declared(TestControls.console),
    ]
}

extension EndpointTests {
    @Test func aPathHasItsParametersInPlace() {
        #expect(
            ServerAPI.transactionInfo.path(.init(transactionId: "2000000000000001"))
                == "/inApps/v1/transactions/2000000000000001")
        #expect(
            ServerAPI.massExtensionStatus.path(.init(productId: "com.example.pro", requestIdentifier: "a-b_c~d"))
                == "/inApps/v1/subscriptions/extend/mass/com.example.pro/a-b_c~d")
        #expect(DeviceAPI.unfinished.path() == "/storekit/v1/transactions/unfinished")
        #expect("\(TestControls.refund)" == "POST /test/v1/transactions/{transactionId}/refund")
    }

    @Test func aParameterIsAlwaysOneSegment() {
        #expect(TestControls.removeCustomer.path(.init(name: "a/b c")) == "/test/v1/customers/a%2Fb%20c")
        #expect(TestControls.removeCustomer.path(.init(name: "é?")) == "/test/v1/customers/%C3%A9%3F")
        #expect(TestControls.removeCustomer.path(.init(name: "..")) == "/test/v1/customers/%2E%2E")
        #expect(TestControls.removeCustomer.path(.init(name: "a.b")) == "/test/v1/customers/a.b")
    }

    @Test func aTemplateMatchesItsPathsOnly() {
        let template = ServerAPI.setAppAccountToken.template
        #expect(template.parameterNames == ["originalTransactionId"])
        #expect(
            template.match(["inApps", "v1", "transactions", "7", "appAccountToken"]) == ["originalTransactionId": "7"])
        #expect(template.match(["inApps", "v1", "transactions", "", "appAccountToken"]) == nil)
        #expect(template.match(["inApps", "v1", "transactions", "7"]) == nil)
        #expect(template.match(["inApps", "v2", "transactions", "7", "appAccountToken"]) == nil)
    }

    @Test func theRouterAnswersEveryDeclaredEndpointAndNoOther() throws {
        let routes =
            MockStoreRouter.allRoutes
        let routed = routes.map { Declared(method: $0.method, template: $0.template.description) }
        #expect(Set(routed).count == routed.count, "an endpoint routed twice")
        #expect(Set(Self.everyEndpoint).count == Self.everyEndpoint.count, "an endpoint declared twice")
        #expect(Set(routed.map(\.description)) == Set(Self.everyEndpoint.map(\.description)))
    }

    /// A handler reads `path.transactionId` and a client builds the path from a `TransactionPath`: the type's
    /// properties must be the template's parameters, named alike and in order, then the query's, or a value lands
    /// in the wrong place.
    @Test func everyEndpointsParametersTypeHasTheTemplatesParametersThenItsQuery() {
        for endpoint in Self.everyEndpoint {
            #expect(endpoint.pathProperties == endpoint.parameterNames + endpoint.queryNames, "\(endpoint)")
        }
        let path = ServerAPI.massExtensionStatus.path(.init(productId: "p", requestIdentifier: "r"))
        let segments = MockStoreRouter.segments(of: path)
        #expect(ServerAPI.massExtensionStatus.parameters(segments) == .init(productId: "p", requestIdentifier: "r"))
        #expect(ServerAPI.massExtensionStatus.parameters(["inApps", "v1", "subscriptions"]) == nil)
        let refunds = ServerAPI.refundHistory.target(.init(transactionId: "7", revision: "r 1"))
        #expect(refunds == "/inApps/v2/refund/lookup/7?revision=r%201")
        let query = ["revision": ["r 1"]]
        #expect(
            ServerAPI.refundHistory.parameters(["inApps", "v2", "refund", "lookup", "7"], query: { query[$0] ?? [] })
                == .init(transactionId: "7", revision: "r 1"))
        #expect(DeviceAPI.updates.target(.init(after: "3")) == "/storekit/v1/transactions/updates?after=3")
        #expect(DeviceAPI.updates.target(.init(after: nil)) == "/storekit/v1/transactions/updates")
    }
}

extension EndpointTests {
    @Test func anErrorTheEndpointDoesNotDeclareIsMarked() throws {
        let route = MockStoreRouter.Route(TestControls.clear) { _, _, _ in HTTPResponse(status: 200) }
        let conflict = MockStoreError.conflict(.notInForce).response
        let marked = MockStoreRouter.markedIfUndeclared(conflict, by: route)
        #expect(marked.headers.contains(HTTPHeader(MockStoreRouter.undeclaredErrorHeader, "4090000")))
        let badRequest = MockStoreError.invalid(.malformedJSON).response
        #expect(MockStoreRouter.markedIfUndeclared(badRequest, by: route).headers == badRequest.headers)
        #expect(TestControls.approve.declares(error: StoreErrorCode.conflict))
        #expect(!DeviceAPI.messages.declares(error: StoreErrorCode.conflict))
    }
}
