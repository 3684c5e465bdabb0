import Foundation
import StoreTestControls
import StoreWire
import Testing

/// The device API's and the test controls' fixed-value fields, typed: each known value reads as its case and back,
/// and a value added later is kept as sent.
@Suite struct StoreFieldEnumTests {
    /// Every known case reads back as itself from its raw value, and no two share one.
    static func roundTrips<Value: WireStringEnum>(_ type: Value.Type) -> Bool {
        let cases = Value.knownCases
        return cases.allSatisfy { Value(rawValue: $0.rawValue) == $0 && $0.isRecognized }
            && Set(cases.map(\.rawValue)).count == cases.count
    }

    @Test func everyKnownCaseRoundTrips() {
        #expect(Self.roundTrips(PurchaseResultKind.self))
        #expect(Self.roundTrips(TransactionStatus.self))
        #expect(Self.roundTrips(TransactionOrigin.self))
        #expect(Self.roundTrips(RefundRequestState.self))
        #expect(Self.roundTrips(MessageReason.self))
        #expect(Self.roundTrips(SubscriptionRenewalState.self))
        #expect(Self.roundTrips(SubscriptionPeriodUnit.self))
        #expect(Self.roundTrips(SubscriptionOfferType.self))
        #expect(Self.roundTrips(SubscriptionOfferPaymentMode.self))
        #expect(Self.roundTrips(PurchaseOfferKind.self))
        #expect(Self.roundTrips(StoreKitAPI.self))
        #expect(Self.roundTrips(StoreKitErrorName.self))
        #expect(Self.roundTrips(NotificationDeliveryState.self))
        #expect(Self.roundTrips(FailureSource.self))
    }

    @Test func aStoreKitErrorNameIsItsTypeThenItsCase() {
        #expect(
            StoreKitErrorName(rawValue: "Product.PurchaseError.purchaseNotAllowed") == .purchase(.purchaseNotAllowed))
        #expect(StoreKitErrorName(rawValue: "StoreKitError.networkError") == .storeKit(.networkError))
        #expect(StoreKitErrorName(rawValue: "SKError.Code.paymentNotAllowed") == .skError(.paymentNotAllowed))
        #expect(StoreKitErrorName.skError(.invalidOfferPrice).rawValue == "SKError.Code.invalidOfferPrice")
        #expect(StoreKitErrorName.SKErrorCase.invalidOfferPrice.code == 14)
        #expect(StoreKitErrorName(rawValue: "VerificationError.invalidSignature") == .verification(.invalidSignature))
        #expect(StoreKitErrorName(rawValue: "purchaseNotAllowed") == .unrecognized("purchaseNotAllowed"))
    }

    @Test func aPurchaseAnswerReadsItsResultTyped() throws {
        let json = #"{"result":"pending","pendingReason":"askToBuy","transactionId":"7"}"#
        let answer = try JSONDecoder().decode(PurchaseResponseBody.self, from: Data(json.utf8))
        #expect(answer == PurchaseResponseBody(result: .pending, pendingReason: .askToBuy, transactionId: "7"))
        let later = try JSONDecoder().decode(PurchaseResponseBody.self, from: Data(#"{"result":"deferred"}"#.utf8))
        #expect(later.result == .unrecognized("deferred"))
        #expect(String(decoding: try JSONEncoder().encode(later), as: UTF8.self) == #"{"result":"deferred"}"#)
    }
}
