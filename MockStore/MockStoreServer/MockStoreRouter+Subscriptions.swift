import StoreWire

/// Subscription routes: the device API's, the test controls' and the Server API's.
extension MockStoreRouter {
    static let subscriptionRoutes: [Route] = [
        Route(method: "GET", pattern: ["storekit", "v1", "transactions", "current-entitlements"]) { store, request, _ in
            respond { try store.currentEntitlements(device: try device(request)) }
        },
        Route(method: "GET", pattern: ["storekit", "v1", "subscriptions", ":group", "status"]) {
            store, request, captures in
            respond { try store.subscriptionStatus(groupId: captures["group"] ?? "", device: try device(request)) }
        },
        Route(method: "GET", pattern: ["storekit", "v1", "subscriptions", ":group", "intro-offer-eligibility"]) {
            store, _, captures in
            respond { try store.introOfferEligibility(groupId: captures["group"] ?? "") }
        },
        Route(method: "GET", pattern: ["test", "v1", "clock"]) { store, _, _ in
            respond { store.clock() }
        },
        Route(method: "POST", pattern: ["test", "v1", "clock", "advance"]) { store, request, _ in
            respond { try store.advanceClock(by: try decode(TestClockRequest.self, from: request.body).duration ?? "") }
        },
        Route(method: "POST", pattern: ["test", "v1", "clock", "rate"]) { store, request, _ in
            respond { try store.setClockRate(try decode(TestClockRequest.self, from: request.body).rate ?? "") }
        },
        Route(method: "GET", pattern: ["test", "v1", "subscriptions"]) { store, _, _ in
            respond { try store.testSubscriptions() }
        },
        Route(method: "POST", pattern: ["test", "v1", "subscriptions", ":ref", "renew"]) { store, _, captures in
            respond { try store.forceRenewal(captures["ref"] ?? "") }
        },
        Route(method: "POST", pattern: ["test", "v1", "subscriptions", ":ref", "expire"]) { store, _, captures in
            respond { try store.expireSubscription(captures["ref"] ?? "") }
        },
        Route(method: "POST", pattern: ["test", "v1", "subscriptions", ":ref", "auto-renew"]) {
            store, request, captures in
            respond {
                try store.setAutoRenew(
                    captures["ref"] ?? "", enabled: try decode(TestAutoRenewRequest.self, from: request.body).enabled)
            }
        },
        Route(method: "POST", pattern: ["test", "v1", "subscriptions", ":ref", "change"]) { store, request, captures in
            respond {
                try store.changeSubscription(
                    captures["ref"] ?? "", to: try decode(PurchaseRequestBody.self, from: request.body).productId)
            }
        },
        serverRoute("GET", ["inApps", "v1", "subscriptions", ":id"]) { store, request, captures in
            respond { try store.allSubscriptionStatuses(transactionId: captures["id"] ?? "", query: request.query) }
        },
    ]
}
