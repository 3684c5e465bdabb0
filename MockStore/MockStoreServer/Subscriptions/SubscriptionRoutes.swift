import StoreTestControls
import StoreWire

/// Subscription routes: the device API's, the test controls' and the Server API's.
enum SubscriptionRoutes: RouteTable {
    static let routes: [Route] = [
        route(DeviceAPI.currentEntitlements) { store, request, _ in
            try store.subscriptions.currentEntitlements(device: try device(request))
        },
        route(DeviceAPI.subscriptionStatus) { store, request, captures in
            try store.subscriptions.subscriptionStatus(groupId: captures["groupId"], device: try device(request))
        },
        route(DeviceAPI.introOfferEligibility) { store, _, captures in
            try store.subscriptions.introOfferEligibility(groupId: captures["groupId"])
        },
        route(TestControls.clock) { store, _, _ in store.clockControls.clock() },
        route(TestControls.advanceClock) { store, request, _ in
            try store.clockControls.advanceClock(
                by: try decode(TestClockRequest.self, from: request.body).duration ?? "")
        },
        route(TestControls.setClockRate) { store, request, _ in
            try store.clockControls.setClockRate(try decode(TestClockRequest.self, from: request.body).rate ?? "")
        },
        route(TestControls.subscriptions) { store, _, _ in try store.subscriptions.testSubscriptions() },
        route(TestControls.renew) { store, _, captures in try store.subscriptions.forceRenewal(captures["subscription"])
        },
        route(TestControls.expire) { store, _, captures in
            try store.subscriptions.expireSubscription(captures["subscription"])
        },
        route(TestControls.autoRenew) { store, request, captures in
            try store.subscriptions.setAutoRenew(
                captures["subscription"], enabled: try decode(TestAutoRenewRequest.self, from: request.body).enabled)
        },
        route(TestControls.change) { store, request, captures in
            try store.subscriptions.changeSubscription(
                captures["subscription"], to: try decode(PurchaseRequestBody.self, from: request.body).productId)
        },
        serverRoute(ServerAPI.subscriptionStatuses) { store, request, captures in
            try store.subscriptions.allSubscriptionStatuses(
                transactionId: captures["transactionId"], query: request.query)
        },
    ]
}
