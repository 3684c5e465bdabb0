extension AppStore {
    /// StoreKit 2's `AppStore.Platform` (https://developer.apple.com/documentation/storekit/appstore/platform): the
    /// platform of an app transaction's first download (`AppTransaction.originalPlatform`), with App Store Connect's
    /// names as raw values.
    public struct Platform: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let iOS = Platform(rawValue: "iOS")
        public static let macOS = Platform(rawValue: "macOS")
        public static let tvOS = Platform(rawValue: "tvOS")
        public static let visionOS = Platform(rawValue: "visionOS")
    }
}
