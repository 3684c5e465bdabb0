import StoreWire

/// The test controls of subscription offers (the keys promotional offer signatures are checked with) and of Family
/// Sharing.
extension MockStoreRouter {
    static let offerRoutes: [Route] = [
        Route(method: "POST", pattern: ["test", "v1", "offer-keys"]) { store, request, _ in
            respond { try store.registerOfferKey(try decode(TestOfferKeyRequest.self, from: request.body)) }
        },
        Route(method: "GET", pattern: ["test", "v1", "offer-keys"]) { store, _, _ in
            respond { store.offerKeys() }
        },
        Route(method: "POST", pattern: ["test", "v1", "family-sharing"]) { store, request, _ in
            respond {
                try store.shareThroughFamily(
                    productId: try decode(PurchaseRequestBody.self, from: request.body).productId)
            }
        },
        Route(method: "POST", pattern: ["test", "v1", "subscriptions", ":ref", "family-revoke"]) { store, _, captures in
            respond { try store.endFamilySharing(captures["ref"] ?? "") }
        },
    ]
}
