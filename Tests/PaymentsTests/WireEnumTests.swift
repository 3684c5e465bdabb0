import Foundation
import Payments
import Testing

@Suite struct WireEnumTests {
    @Test func knownValuesReadAsTheirCasesAndOthersAreKeptAsSent() throws {
        #expect(StoreEnvironment(rawValue: "Sandbox") == .sandbox)
        #expect(StoreEnvironment(rawValue: "Production") == .production)
        #expect(StoreEnvironment(rawValue: "Xcode") == .xcode)
        #expect(StoreEnvironment(rawValue: "Staging") == .unrecognized("Staging"))
        #expect(PendingReason(rawValue: "askToBuy") == .askToBuy)
        #expect(RevocationType(rawValue: "REFUND_PRORATED") == .refundProrated)
        #expect(ProductType(rawValue: "consumable") == .consumable)
        let decoded = try JSONDecoder().decode([PendingReason].self, from: Data(#"["interrupted","later"]"#.utf8))
        #expect(decoded == [.interrupted, .unrecognized("later")])
        #expect(String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self) == #"["interrupted","later"]"#)
        #expect(StoreEnvironment.unrecognized("Staging").description == "Staging")
    }
}

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

@Suite struct StoreConfigurationTests {
    @Test func aConfigurationThatNamesNoEnvironmentTakesSandboxReceipts() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // store.json as written before receipts' environment was configured.
        let old = #"{"bundleId":"dev.example","signing":"hs256","store":"mockstore","url":"http://127.0.0.1:1"}"#
        try Data(old.utf8).write(to: URL(fileURLWithPath: directory + "/store.json"))
        let configuration = try StoreConfiguration.load(from: directory)
        #expect(configuration.environment == nil)
        #expect(configuration.receiptEnvironment == .sandbox)
        var production = configuration
        production.environment = .production
        try production.save(to: directory)
        #expect(try StoreConfiguration.load(from: directory).receiptEnvironment == .production)
        #expect(try String(contentsOfFile: directory + "/store.json", encoding: .utf8).contains(#""Production""#))
        // Saving one that names none writes none: the file is as it was.
        try configuration.save(to: directory)
        #expect(try !String(contentsOfFile: directory + "/store.json", encoding: .utf8).contains("environment"))
    }

    @Test func errorsAreTypedAndPlain() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)").path
        #expect(throws: StoreConfigurationError.invalidURL("ftp://x")) {
            try StoreConfiguration.useMockStore(
                url: "ftp://x", rootCertificate: nil, secret: nil, bundleID: "dev.example", in: directory)
        }
        #expect(throws: StoreConfigurationError.noReceiptVerification) {
            try StoreConfiguration.useMockStore(
                url: "http://127.0.0.1:1", rootCertificate: nil, secret: nil, bundleID: "dev.example", in: directory)
        }
        do {
            _ = try StoreConfiguration.useMockStore(
                url: "http://127.0.0.1:1", rootCertificate: Array("junk".utf8), secret: nil, bundleID: "dev.example",
                in: directory)
            Issue.record("junk was pinned")
        } catch let error as StoreConfigurationError {
            guard case .unreadableCertificate = error else { throw error }
            #expect(!error.description.contains(".swift:"), "\(error)")
        }
        try? FileManager.default.removeItem(atPath: directory)
    }
}
