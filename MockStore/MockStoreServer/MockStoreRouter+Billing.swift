import StoreWire

/// The billing and price-increase test controls, under `/test/v1/`.
extension MockStoreRouter {
    static let billingRoutes: [Route] = [
        Route(method: "GET", pattern: ["test", "v1", "settings", "billing"]) { store, _, _ in
            respond { try store.billingSettingsBody() }
        },
        Route(method: "POST", pattern: ["test", "v1", "settings", "billing"]) { store, request, _ in
            respond { try store.updateBillingSettings(try decode(TestBillingSettingsUpdate.self, from: request.body)) }
        },
        Route(method: "POST", pattern: ["test", "v1", "subscriptions", ":ref", "recover"]) { store, _, captures in
            respond { try store.recoverBilling(captures["ref"] ?? "") }
        },
        Route(method: "POST", pattern: ["test", "v1", "subscriptions", ":ref", "price-increase"]) {
            store, request, captures in
            respond {
                let body = try decodeOptional(
                    TestPriceIncreaseRequest.self, from: request.body, fallback: TestPriceIncreaseRequest())
                return try store.requestPriceIncrease(captures["ref"] ?? "", body)
            }
        },
        Route(method: "POST", pattern: ["test", "v1", "subscriptions", ":ref", "price-increase", "consent"]) {
            store, _, captures in
            respond { try store.consentToPriceIncrease(captures["ref"] ?? "") }
        },
        Route(method: "POST", pattern: ["test", "v1", "subscriptions", ":ref", "price-increase", "decline"]) {
            store, _, captures in
            respond { try store.declinePriceIncrease(captures["ref"] ?? "") }
        },
        Route(method: "GET", pattern: ["storekit", "v1", "messages"]) { store, _, _ in
            respond { try store.messages() }
        },
    ]
}
