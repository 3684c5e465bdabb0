/// The `mockstore` command line, parsed and checked.
public struct MockStoreOptions: Equatable, Sendable {
    /// The data directory when neither `--data` nor `MOCKSTORE_DATA` says.
    public static let defaultDataDirectory = "mockstore-data"
    /// The catalogue when `--catalogue` is not given (relative to the working directory).
    public static let defaultCataloguePath = "Catalogue/Credit.storekit"
    public static let defaultBundleId = "ai.voicedebrief.app"

    public var host: String = "127.0.0.1"
    /// 0: any free port (the one chosen is printed).
    public var port: UInt16 = 0
    public var cataloguePath: String = Self.defaultCataloguePath
    public var dataDirectory: String = Self.defaultDataDirectory
    public var signing: SigningMode = .es256
    /// The shared secret's file (`hs256` only).
    public var secretFile: String?
    public var bundleId: String = Self.defaultBundleId

    public init() {}
}
