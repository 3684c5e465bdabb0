import Foundation
import Payments
import Testing

@Suite struct SimulatedStoreTests {
    let pack = StoreProduct(
        id: "dev.example.credit", type: .consumable, displayName: "Credit", description: "", displayPrice: "£1.00")

    @Test func aSimulatedPurchaseHasNoSignedTransaction() async throws {
        let store = SimulatedStore(pack: pack, makeReference: { "SIM-7" })
        let outcome = try await store.purchase("dev.example.credit", appAccountToken: nil)
        #expect(outcome == .success(.simulated(SimulatedPurchase(reference: "SIM-7", productID: "dev.example.credit"))))
        #expect(try await store.unfinished().isEmpty)
        #expect(try await store.products(for: ["dev.example.credit", "other"]) == [pack])
        await #expect(throws: StoreError.productUnavailable("other")) {
            try await store.purchase("other", appAccountToken: nil)
        }
    }
}
