import Foundation
import Payments
import Testing

@Suite struct WireEnumTests {
    @Test func knownValuesReadAsTheirCasesAndOthersAreKeptAsSent() throws {
        #expect(AppStoreEnvironment(rawValue: "Sandbox") == .sandbox)
        #expect(AppStoreEnvironment(rawValue: "Production") == .production)
        #expect(AppStoreEnvironment(rawValue: "Xcode") == .xcode)
        #expect(AppStoreEnvironment(rawValue: "Staging") == .unrecognized("Staging"))
        #expect(PendingReason(rawValue: "askToBuy") == .askToBuy)
        #expect(RevocationType(rawValue: "REFUND_PRORATED") == .refundProrated)
        #expect(ProductType(rawValue: "consumable") == .consumable)
        let decoded = try JSONDecoder().decode([PendingReason].self, from: Data(#"["interrupted","later"]"#.utf8))
        #expect(decoded == [.interrupted, .unrecognized("later")])
        #expect(String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self) == #"["interrupted","later"]"#)
        #expect(AppStoreEnvironment.unrecognized("Staging").description == "Staging")
    }
}
