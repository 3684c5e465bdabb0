import Foundation
import StoreWire
import Testing

/// A value as the one field of a JSON object.
private struct Box<Value: Codable>: Codable { var value: Value }

@Suite struct WireEnumTests {
    /// `value` decoded from `json` (as the one field of an object), and that value encoded again.
    static func roundTrip<Value: Codable>(_ json: String, as type: Value.Type) throws -> (Value, String) {
        let decoded = try JSONDecoder().decode(Box<Value>.self, from: Data(json.utf8))
        return (decoded.value, String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self))
    }
}

extension WireEnumTests {
    @Test func knownValuesReadAsTheirCases() {
        #expect(AppStoreEnvironment(rawValue: "Sandbox") == .sandbox)
        #expect(AppStoreEnvironment(rawValue: "Xcode") == .xcode)
        #expect(ProductType(rawValue: "Auto-Renewable Subscription") == .autoRenewableSubscription)
        #expect(StoreKitProductType(rawValue: "consumable") == .consumable)
        #expect(NotificationType(rawValue: "DID_CHANGE_RENEWAL_PREF") == .didChangeRenewalPref)
        #expect(NotificationSubtype(rawValue: "BILLING_RECOVERY") == .billingRecovery)
        #expect(RevocationType(rawValue: "REFUND_PRORATED") == .refundProrated)
        #expect(PendingReason(rawValue: "askToBuy") == .askToBuy)
        #expect(RevocationReason(rawValue: 0) == .refundedForOtherReason)
        #expect(ExpirationIntent(rawValue: 3) == .customerDidNotConsentToPriceIncrease)
        #expect(SubscriptionStatus(rawValue: 4) == .billingGracePeriod)
        #expect(AppStoreEnvironment(rawValue: "Staging") == .unrecognized("Staging"))
        #expect(AppStoreEnvironment.unrecognized("Staging").description == "Staging")
        #expect(OfferType.unrecognized(9).description == "9")
    }

    /// Every known case encodes as its raw value and reads back as itself: no two cases share a value.
    @Test func everyKnownCaseRoundTrips() throws {
        for value in NotificationType.knownCases {
            #expect(NotificationType(rawValue: value.rawValue) == value && value.isRecognized)
        }
        for value in NotificationSubtype.knownCases { #expect(NotificationSubtype(rawValue: value.rawValue) == value) }
        for value in SendAttemptResult.knownCases { #expect(SendAttemptResult(rawValue: value.rawValue) == value) }
        for value in ExpirationIntent.knownCases { #expect(ExpirationIntent(rawValue: value.rawValue) == value) }
        for value in SubscriptionStatus.knownCases { #expect(SubscriptionStatus(rawValue: value.rawValue) == value) }
        #expect(Set(NotificationType.knownCases.map(\.rawValue)).count == NotificationType.knownCases.count)
    }

    @Test func anUnknownStringDecodesAsUnrecognizedAndEncodesBackUnchanged() throws {
        let json = #"{"value":"NEW_TYPE"}"#
        let (value, encoded) = try Self.roundTrip(json, as: NotificationType.self)
        #expect(value == .unrecognized("NEW_TYPE"))
        #expect(!value.isRecognized)
        #expect(encoded == json)
        let list = try JSONDecoder().decode([PendingReason].self, from: Data(#"["interrupted","later"]"#.utf8))
        #expect(list == [.interrupted, .unrecognized("later")])
        #expect(String(decoding: try JSONEncoder().encode(list), as: UTF8.self) == #"["interrupted","later"]"#)
    }

    @Test func anUnknownIntegerDecodesAsUnrecognizedAndEncodesBackUnchanged() throws {
        let json = #"{"value":7}"#
        let (value, encoded) = try Self.roundTrip(json, as: ExpirationIntent.self)
        #expect(value == .unrecognized(7))
        #expect(!value.isRecognized)
        #expect(encoded == json)
        let (known, knownEncoded) = try Self.roundTrip(#"{"value":1}"#, as: OfferType.self)
        #expect(known == .introductoryOffer && knownEncoded == #"{"value":1}"#)
    }

    /// A payload with values this version does not know decodes, and encodes back with them as sent.
    @Test func aPayloadKeepsUnknownValues() throws {
        let payload = RenewalInfoPayload(
            originalTransactionId: "1", autoRenewProductId: "p", productId: "p", autoRenewStatus: .unrecognized(2),
            expirationIntent: .unrecognized(6), offerType: .unrecognized(5), offerDiscountType: .unrecognized("NEW"),
            signedDate: 1, environment: .unrecognized("Staging"), recentSubscriptionStartDate: 1, renewalDate: 1,
            currency: "GBP", renewalPrice: 1)
        let encoded = try JSONEncoder().encode(payload)
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.contains(#""autoRenewStatus":2"#) && text.contains(#""environment":"Staging""#))
        #expect(try JSONDecoder().decode(RenewalInfoPayload.self, from: encoded) == payload)
    }
}

extension WireEnumTests {
    /// The enums change no byte on the wire: a signed transaction encodes Apple's strings and numbers, as the
    /// `String` and `Int` fields did.
    @Test func aTransactionEncodesApplesRawValues() throws {
        var payload = SignedTransactionPayload(
            transactionId: "1", originalTransactionId: "1", bundleId: "b", productId: "p", purchaseDate: 1,
            originalPurchaseDate: 1, quantity: 1, type: .autoRenewableSubscription, signedDate: 2, price: 990,
            revocationDate: 3, revocationReason: .refundedDueToIssue, revocationType: .refundProrated,
            revocationPercentage: 50_000)
        payload.offerType = .winBackOffer
        payload.offerDiscountType = .payAsYouGo
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(payload), as: UTF8.self)
        #expect(
            text == """
                {"bundleId":"b","currency":"GBP","environment":"Sandbox","inAppOwnershipType":"PURCHASED",\
                "offerDiscountType":"PAY_AS_YOU_GO","offerType":4,"originalPurchaseDate":1,\
                "originalTransactionId":"1","price":990,"productId":"p","purchaseDate":1,"quantity":1,\
                "revocationDate":3,"revocationPercentage":50000,"revocationReason":1,\
                "revocationType":"REFUND_PRORATED","signedDate":2,"storefront":"GBR","storefrontId":"143444",\
                "transactionId":"1","transactionReason":"PURCHASE","type":"Auto-Renewable Subscription"}
                """)
    }
}
