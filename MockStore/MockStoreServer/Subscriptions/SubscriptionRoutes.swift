import StoreTestControls
import StoreWire

/// Subscription routes: the device API's, the test controls' and the Server API's.
enum SubscriptionRoutes: RouteTable {
    static let routes: [Route] = [
        route(DeviceAPI.currentEntitlements) { store, request, _ in
            try store.subscriptions.currentEntitlements(device: try device(request))
        },
        route(DeviceAPI.subscriptionStatus) { store, request, path in
            try store.subscriptions.subscriptionStatus(groupId: path.groupId, device: try device(request))
        },
        route(DeviceAPI.introOfferEligibility) { store, _, path in
            try store.subscriptions.introOfferEligibility(groupId: path.groupId)
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
        route(TestControls.renew) { store, _, path in try store.subscriptions.forceRenewal(path.subscription)
        },
        route(TestControls.expire) { store, _, path in
            try store.subscriptions.expireSubscription(path.subscription)
        },
        route(TestControls.autoRenew) { store, request, path in
            try store.subscriptions.setAutoRenew(
                path.subscription, enabled: try decode(TestAutoRenewRequest.self, from: request.body).enabled)
        },
        route(TestControls.change) { store, request, path in
            try store.subscriptions.changeSubscription(
                path.subscription, to: try decode(PurchaseRequestBody.self, from: request.body).productId)
        },
        serverRoute(ServerAPI.subscriptionStatuses) { store, _, parameters in
            try store.subscriptions.allSubscriptionStatuses(
                transactionId: parameters.transactionId, statuses: parameters.status)
        },
    ]
}
