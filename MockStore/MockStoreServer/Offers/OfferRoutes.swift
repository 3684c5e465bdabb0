import StoreTestControls
import StoreWire

/// The test controls of subscription offers (the keys promotional offer signatures are checked with) and of Family
/// Sharing.
enum OfferRoutes: RouteTable {
    static let routes: [Route] = [
        route(TestControls.registerOfferKey) { store, request, _ in
            try store.offers.registerOfferKey(try decode(TestOfferKeyRequest.self, from: request.body))
        },
        route(TestControls.offerKeys) { store, _, _ in store.offers.offerKeys() },
        route(TestControls.familyShare) { store, request, _ in
            try store.familySharing.shareThroughFamily(
                productId: try decode(PurchaseRequestBody.self, from: request.body).productId)
        },
        route(TestControls.familyRevoke) { store, _, path in
            try store.familySharing.endFamilySharing(path.subscription)
        },
    ]
}
