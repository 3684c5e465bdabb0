import AppStorePayments
import Foundation
import Payments

#if !canImport(StoreKit)
    import MockStoreKit
#endif

extension VoiceDebriefStore {
    /// The owner's switch (`Payments.appStoreIsOn` in the owner's note): off until the product exists in App Store
    /// Connect. Off, a data directory with no store configured tops up through the simulated store; on, through the
    /// App Store (Apple's on an Apple build, so the credit screen offers what it returns; on Linux, the mockstore
    /// that `MOCKSTORE_URL` names).
    public static let appStoreIsOn = false
}

extension CreditApp {
    /// The store `configuration` names: the App Store provider for `mockstore` (over `MockStoreKit` on Linux,
    /// configured with the store's URL and pinned root), else the simulated store, or the App Store when
    /// `appStoreIsOn`. A store over the network waits `requestTimeout` seconds for each answer (10 when nil); on
    /// Linux the mock store's device is `customer`'s (`MOCKSTORE_CUSTOMER`).
    public static func provider(
        _ configuration: StoreConfiguration, directory: String, requestTimeout: TimeInterval? = nil,
        appStoreIsOn: Bool = VoiceDebriefStore.appStoreIsOn,
        customer: String? = ProcessInfo.processInfo.environment["MOCKSTORE_CUSTOMER"]
    ) throws(StoreConfigurationError) -> any StoreProvider {
        switch configuration.store {
        case .mockstore:
            #if !canImport(StoreKit)
                guard let text = configuration.url, let url = URL(string: text) else { throw .missingURL }
                let root: [UInt8]?
                do {
                    root = try StoreConfiguration.pinnedRootCertificate(in: directory)
                } catch {
                    throw (error as? StoreConfigurationError) ?? .fileSystem("\(error)")
                }
                let session = MockStoreKitSession(
                    MockStoreKitConfiguration(
                        url: url, rootCertificate: root,
                        customer: customer,
                        // The ledger takes every consumable's latest state (a refund reversed after it was finished).
                        includesConsumableInAppPurchaseHistory: true,
                        timeout: requestTimeout ?? StoreConfiguration.defaultRequestTimeout))
                return MockStoreKitLaunch(session: session, provider: AppStoreProvider())
            #else
                return AppStoreProvider()
            #endif
        default:
            return appStoreIsOn ? AppStoreProvider() : VoiceDebriefStore.simulatedStore()
        }
    }
}

#if !canImport(StoreKit)
    /// The App Store provider over one launch of MockStoreKit: each call runs with this data directory's store, so
    /// two in one process never share one.
    struct MockStoreKitLaunch: StoreProvider {
        let session: MockStoreKitSession
        let provider: AppStoreProvider

        var name: String { provider.name }
        var displayName: String { provider.displayName }
        var takesMoney: Bool { provider.takesMoney }

        func products(for ids: [String]) async throws -> [StoreProduct] {
            try await session.run { try await provider.products(for: ids) }
        }

        func purchase(_ productID: String, appAccountToken: UUID?) async throws -> PurchaseOutcome {
            try await session.run { try await provider.purchase(productID, appAccountToken: appAccountToken) }
        }

        func unfinished() async throws -> [SignedTransaction] {
            try await session.run { try await provider.unfinished() }
        }

        func finish(transactionID: String) async throws {
            try await session.run { try await provider.finish(transactionID: transactionID) }
        }

        func sync() async throws {
            try await session.run { try await provider.sync() }
        }

        func updates(after cursor: String?) async throws -> (signedTransactions: [SignedTransaction], cursor: String?) {
            try await session.run { try await provider.updates(after: cursor) }
        }
    }
#endif
