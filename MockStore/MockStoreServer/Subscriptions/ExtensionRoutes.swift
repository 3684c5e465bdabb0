import StoreWire

/// The renewal-date extension endpoints of the App Store Server API, at Apple's paths (bearer token checked
/// first).
enum ExtensionRoutes: RouteTable {
    static let routes: [Route] = [
        serverRoute(ServerAPI.extendRenewalDate) { store, request, path in
            try store.extensions.extendRenewalDate(
                originalTransactionId: path.originalTransactionId, body: request.body)
        },
        serverRoute(ServerAPI.massExtendRenewalDate) { store, request, _ in
            try store.extensions.extendRenewalDatesForAll(body: request.body)
        },
        serverRoute(ServerAPI.massExtensionStatus) { store, _, path in
            try store.extensions.renewalExtensionStatus(
                productId: path.productId, requestIdentifier: path.requestIdentifier)
        },
    ]
}
