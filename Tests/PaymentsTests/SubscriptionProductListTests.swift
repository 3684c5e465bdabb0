import Foundation
import Payments
import StoreWire
import Testing

/// The device API's product list that holds auto-renewable subscriptions (the app sells
/// consumables, but a shared catalogue may sell more), keeping values it does not know.
@Suite struct SubscriptionProductListTests {
    @Test func unknownValuesInASubscriptionAreKept() throws {
        let body = """
            {"products": [{"id": "s", "type": "autoRenewableV2", "displayName": "S", "description": "",
              "displayPrice": "$1.00", "price": "1.00", "currency": "USD", "futureField": 1,
              "subscription": {"subscriptionGroupID": "G", "subscriptionPeriod": {"unit": "fortnight", "value": 1},
                "introductoryOffer": {"id": null, "type": "introductory", "price": "0", "displayPrice": "$0.00",
                  "period": {"unit": "week", "value": 1}, "periodCount": 1, "paymentMode": "halfOff"},
                "promotionalOffers": [{"id": "p", "type": "loyalty", "price": "0.50", "displayPrice": "$0.50",
                  "period": {"unit": "month", "value": 1}, "periodCount": 2, "paymentMode": "payAsYouGo"}],
                "groupLevel": 1, "groupDisplayName": "G", "renewalInfo": {}}}]}
            """
        let decoded = try JSONDecoder().decode(StoreProductsBody.self, from: Data(body.utf8))
        let product = try #require(decoded.products.first)
        #expect(product.type == .unrecognized("autoRenewableV2"))
        let info = try #require(product.subscription)
        #expect(info.subscriptionPeriod.unit == .unrecognized("fortnight"))
        #expect(info.introductoryOffer?.paymentMode == .unrecognized("halfOff"))
        #expect(info.promotionalOffers.first?.type == .unrecognized("loyalty"))
        #expect(info.winBackOffers.isEmpty, "missing: none")
        let again = try JSONDecoder().decode(StoreProductsBody.self, from: try JSONEncoder().encode(decoded))
        #expect(again == decoded, "what was kept is sent on unchanged")
    }
}
