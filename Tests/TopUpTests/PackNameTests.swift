import CreditLedger
import Foundation
import Testing

@testable import TopUp

/// A pack is said by what it buys ("£5 of credit"), never by its product id (issue 35 item 13).
@Suite struct PackNameTests {
    let packs = PackCatalogue(
        credits: ["app.credit.500": MicroCredits(5_000_000), "app.credit.550": MicroCredits(5_500_000)],
        defaultProduct: "app.credit.500")

    @Test func aPackIsNamedByTheCreditItBuys() {
        #expect(packs.name(of: "app.credit.500") == "£5 of credit")
        #expect(packs.name(of: "app.credit.550") == "£5.50 of credit")
        #expect(packs.name(of: "app.unknown") == "app.unknown", "a product that is no pack keeps its id")
    }

    @Test func aWaitingPurchaseIsDescribedByItsPack() throws {
        let pending = PendingPurchases.Purchase(
            product: "app.credit.500", since: "2026-12-04T10:00:00.000Z", reason: .askToBuy, transactionId: nil)
        let now = try #require(Timestamp(iso8601: "2026-12-04T11:00:00.000Z"))
        let text = PendingPurchases.describe(pending, at: now, packs: packs)
        #expect(text.hasPrefix("A purchase of £5 of credit, asked for on 2026-12-04 10:00 UTC, is waiting"), "\(text)")
    }
}
