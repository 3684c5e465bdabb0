import Foundation
import MockStoreKit
import Signing
import TestSupport
import Testing

/// `MockStoreKitConfiguration.fromEnvironment`: the store's URL, its root (a PEM or DER file) and the customer, and
/// in words what is wrong when they cannot be used.
@Suite struct ConfigurationTests {}

extension ConfigurationTests {
    @Test func theEnvironmentNamesTheStoreItsRootAndTheCustomer() async throws {
        let shop = try await StoreKitFixture.start()
        let directory = try TemporaryDirectory()
        let root = try Certificate(derRepresentation: shop.root)
        let pem = try directory.write(root.pemRepresentation, to: "root.pem")
        let configuration = try MockStoreKitConfiguration.fromEnvironment([
            "MOCKSTORE_URL": shop.store.url.absoluteString, "MOCKSTORE_ROOT_CERTIFICATE": pem,
            "MOCKSTORE_CUSTOMER": "alice",
        ])
        #expect(configuration.url == shop.store.url)
        #expect(configuration.rootCertificate == shop.root)
        #expect(configuration.customer == "alice")
        #expect(configuration.includesConsumableInAppPurchaseHistory == false)
        // The store knows alice once she is added: the configuration then buys for her, verified under the file's root.
        try await shop.store.addCustomer("alice")
        let bought = try await MockStoreKitSession(configuration).run { try await buyVerified(ProductID.credit) }
        let hers = try await shop.store.acting(as: "alice") { try await shop.store.transactions() }
        #expect(hers.map(\.transactionId) == [String(bought.id)])
    }

    @Test func aRootInADERFileIsReadAsIs() throws {
        let directory = try TemporaryDirectory()
        let root = try foreignRoot()
        let path = directory.file("root.der")
        try Data(root.derRepresentation).write(to: URL(fileURLWithPath: path))
        let configuration = try MockStoreKitConfiguration.fromEnvironment([
            "MOCKSTORE_URL": "http://127.0.0.1:8080", "MOCKSTORE_ROOT_CERTIFICATE": path,
            "MOCKSTORE_INCLUDE_CONSUMABLE_HISTORY": "1",
        ])
        #expect(configuration.rootCertificate == root.derRepresentation)
        #expect(configuration.customer == nil, "no MOCKSTORE_CUSTOMER: the store's default customer")
        #expect(configuration.includesConsumableInAppPurchaseHistory)
    }

    @Test func noURLIsAnErrorThatSaysWhatToSet() throws {
        let error = #expect(throws: MockStoreKitConfigurationError.self) {
            try MockStoreKitConfiguration.fromEnvironment(["MOCKSTORE_CUSTOMER": "alice"])
        }
        #expect(error == .noURL)
        #expect(error?.description.contains("set MOCKSTORE_URL") == true)
        let empty = #expect(throws: MockStoreKitConfigurationError.self) {
            try MockStoreKitConfiguration.fromEnvironment(["MOCKSTORE_URL": ""])
        }
        #expect(empty == .noURL, "an empty MOCKSTORE_URL is none")
    }

    @Test(arguments: ["not a url", "ftp://127.0.0.1/store", "http://"])
    func aURLThatIsNotHTTPIsAnError(text: String) throws {
        let error = #expect(throws: MockStoreKitConfigurationError.self) {
            try MockStoreKitConfiguration.fromEnvironment(["MOCKSTORE_URL": text])
        }
        #expect(error == .invalidURL(text))
        #expect(error?.description == "MOCKSTORE_URL \"\(text)\" is not an http or https URL")
    }

    @Test func aMissingRootFileIsAnError() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("nowhere.pem")
        let error = #expect(throws: MockStoreKitConfigurationError.self) {
            try MockStoreKitConfiguration.fromEnvironment([
                "MOCKSTORE_URL": "http://127.0.0.1:8080", "MOCKSTORE_ROOT_CERTIFICATE": path,
            ])
        }
        #expect(error == .unreadableRoot(path: path))
        #expect(error?.description == "the root certificate \(path) cannot be read")
    }

    @Test(arguments: ["hello, not a certificate\n", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"])
    func aFileThatIsNotACertificateIsAnError(contents: String) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(contents, to: "root.pem")
        let error = #expect(throws: MockStoreKitConfigurationError.self) {
            try MockStoreKitConfiguration.fromEnvironment([
                "MOCKSTORE_URL": "http://127.0.0.1:8080", "MOCKSTORE_ROOT_CERTIFICATE": path,
            ])
        }
        #expect(error == .notACertificate(path: path))
        #expect(error?.description == "\(path) holds no certificate (PEM or DER)")
    }
}
