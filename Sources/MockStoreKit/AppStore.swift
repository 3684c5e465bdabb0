import Foundation

/// StoreKit 2's `AppStore` (https://developer.apple.com/documentation/storekit/appstore).
public enum AppStore {
    /// Brings the device's transactions up to date with the store; throws when it cannot be reached. Apple asks
    /// that it be called only when the user asks (a Restore Purchases button).
    public static func sync() async throws {
        let session = try MockStoreKitSession.shared()
        _ = try await session.client.unfinished()
    }

    /// Whether the customer may make payments: always, on the mock store.
    public static var canMakePayments: Bool { true }

    /// The device's verification id, which the store stamps into signed transactions.
    public static var deviceVerificationID: UUID? {
        (try? MockStoreKitSession.shared())?.configuration.deviceVerificationID
    }

    /// StoreKit 2's `AppStore.Environment`.
    public struct Environment: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let production = Environment(rawValue: "Production")
        public static let sandbox = Environment(rawValue: "Sandbox")
        public static let xcode = Environment(rawValue: "Xcode")
    }
}
