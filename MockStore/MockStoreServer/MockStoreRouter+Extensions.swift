import StoreWire

/// The renewal-date extension endpoints of the App Store Server API, at Apple's paths (bearer token checked
/// first).
extension MockStoreRouter {
    static let extensionRoutes: [Route] = [
        serverRoute("PUT", ["inApps", "v1", "subscriptions", "extend", ":id"]) { store, request, captures in
            respond { try store.extendRenewalDate(originalTransactionId: captures["id"] ?? "", body: request.body) }
        },
        serverRoute("POST", ["inApps", "v1", "subscriptions", "extend", "mass"]) { store, request, _ in
            respond { try store.extendRenewalDatesForAll(body: request.body) }
        },
        serverRoute("GET", ["inApps", "v1", "subscriptions", "extend", "mass", ":productId", ":requestIdentifier"]) {
            store, _, captures in
            respond {
                try store.renewalExtensionStatus(
                    productId: captures["productId"] ?? "", requestIdentifier: captures["requestIdentifier"] ?? "")
            }
        },
    ]
}
