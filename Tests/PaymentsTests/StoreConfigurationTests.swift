import Foundation
import Payments
import Testing

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
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(#"{"store":"appstore"}"#.utf8).write(to: URL(fileURLWithPath: directory + "/store.json"))
        #expect(throws: StoreConfigurationError.unknownStore(path: directory + "/store.json", store: "appstore")) {
            try StoreConfiguration.load(from: directory)
        }
        try FileManager.default.removeItem(atPath: directory + "/store.json")
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
