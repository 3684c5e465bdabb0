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
        route(TestControls.recoverBilling) { store, _, captures in
            try store.billing.recoverBilling(captures["subscription"])
        },
        route(TestControls.priceIncrease) { store, request, captures in
            let body = try decodeOptional(
                TestPriceIncreaseRequest.self, from: request.body, fallback: TestPriceIncreaseRequest())
            return try store.billing.requestPriceIncrease(captures["subscription"], body)
        },
        route(TestControls.consentToPriceIncrease) { store, _, captures in
            try store.billing.consentToPriceIncrease(captures["subscription"])
        },
        route(TestControls.declinePriceIncrease) { store, _, captures in
            try store.billing.declinePriceIncrease(captures["subscription"])
        },
        route(DeviceAPI.messages) { store, _, _ in try store.billing.messages() },
    ]
}
