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
    ]
}
