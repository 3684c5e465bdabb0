import Foundation
import StoreWire
import Testing

@testable import MockStoreHTTP
@testable import MockStoreServer

/// The store's errors: the case gives the code, the code the HTTP status, and the words are those users and
/// tests have always seen.
@Suite struct MockStoreErrorTests {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "disk full" }
    }

    @Test func theStatusIsTheCodesFirstThreeDigits() {
        let cases: [(MockStoreError, Int, StoreErrorCode)] = [
            (.invalid(.malformedJSON), 400, .generalBadRequest),
            (.serverAPI(.originalTransactionIdNotFound), 404, .originalTransactionIdNotFound),
            (.serverAPI(.extensionLimit), 403, .subscriptionMaxExtension),
            (.conflict(.notInForce), 409, .conflict),
            (.methodNotAllowed(method: "PUT", path: "/x", allowed: ["GET"]), 405, .methodNotAllowed),
            (.payloadTooLarge(limit: 10), 413, .payloadTooLarge),
            (.internalError(Failure()), 500, .generalInternal),
            (.consumption(.invalidField(.playTime)), 400, .invalidPlayTime),
            (.transactionNotFound, 404, .transactionIdNotFound),
        ]
        for (error, status, code) in cases {
            #expect(error.status == status, "\(error)")
            #expect(error.code == code, "\(error)")
            #expect(error.response.status == status, "\(error)")
        }
    }

    @Test func theWordsAreWholeSentencesAsBefore() {
        let names = (1...12).map { "c\($0)" }
        let expected: [(MockStoreError, String)] = [
            (.internalError(Failure()), "Internal error: disk full"),
            (
                .noCustomerToRemove("bob", existing: names),
                "No customer is called \"bob\", so there is nobody to remove. The store has 12 customers: "
                    + "c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, … (`mockstore control customer list` lists them)."
            ),
            (
                .serverAPI(.startDateTooFarInPast(days: 30)),
                "Invalid request. The start date is earlier than 30 days ago."
            ),
            (
                .consumption(.invalidField(.lifetimeDollarsRefunded)),
                "Invalid request. The lifetime dollars refunded field is invalid."
            ),
            (
                .invalid(.invalidQuantity(0, productType: .consumable, allowed: 1...10)),
                "Invalid quantity 0: consumable products take 1 to 10."
            ),
            (
                .conflict(.sandboxClock(.monthlyRenewalEveryFiveMinutes, .spedUp)),
                "The store runs on the sandbox clock (monthlyRenewalEveryFiveMinutes): its dates are the wall "
                    + "clock's, and real time cannot be sped up. Start mockstore without --clock sandbox to use the "
                    + "virtual clock."
            ),
            (
                .offer(.signature(.invalid("the JWS is for another offer"))),
                "Invalid offer signature (Product.PurchaseError.invalidOfferSignature): the JWS is for another offer."
            ),
            (
                .serverAPI(.extensionIneligible(.extendedTwiceInAYear)),
                "The subscription is not eligible for a renewal date extension: it was extended twice in the last 365 "
                    + "days."
            ),
            (
                .conflict(.billing(originalTransactionId: "7", why: .notActive)),
                "Cannot do that to subscription 7: it is not active."
            ),
        ]
        for (error, words) in expected {
            #expect(error.message == words)
            #expect(error.description == "\(error.status) \(error.code): \(words)")
        }
    }

    @Test func theResponseCarriesTheCodeAndTheWords() throws {
        let error = MockStoreError.invalidTransactionId("abc")
        let body = try JSONDecoder().decode(StoreErrorBody.self, from: Data(error.response.body))
        #expect(body.errorCode == .invalidTransactionId)
        #expect(body.errorMessage == "Invalid transaction id: \"abc\" is not a numeric transaction id.")
    }
}
