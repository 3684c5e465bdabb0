import StoreTestControls
import StoreWire

/// The billing and price-increase test controls, under `/test/v1/`.
enum BillingRoutes: RouteTable {
    static let routes: [Route] = [
        route(TestControls.billingSettings) { store, _, _ in try store.billingSettings.billingSettingsBody() },
        route(TestControls.updateBillingSettings) { store, request, _ in
            try store.billingSettings.updateBillingSettings(
                try decode(TestBillingSettingsUpdate.self, from: request.body))
        },
        route(TestControls.recoverBilling) { store, _, path in
            try store.billing.recoverBilling(path.subscription)
        },
        route(TestControls.priceIncrease) { store, request, path in
            let body = try decodeOptional(
                TestPriceIncreaseRequest.self, from: request.body, fallback: TestPriceIncreaseRequest())
            return try store.billing.requestPriceIncrease(path.subscription, body)
        },
        route(TestControls.consentToPriceIncrease) { store, _, path in
            try store.billing.consentToPriceIncrease(path.subscription)
        },
        route(TestControls.declinePriceIncrease) { store, _, path in
            try store.billing.declinePriceIncrease(path.subscription)
        },
        route(DeviceAPI.messages) { store, _, _ in try store.billing.messages() },
    ]
}
