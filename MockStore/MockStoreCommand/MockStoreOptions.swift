import MockStoreHTTP
import MockStoreServer
import StoreWire

/// The `mockstore` command line, parsed and checked.
public struct MockStoreOptions: Equatable, Sendable {
    /// The data directory when neither `--data` nor `MOCKSTORE_DATA` says.
    public static let defaultDataDirectory = "mockstore-data"
    /// The catalogue when neither `--catalogue` nor `MOCKSTORE_CATALOGUE` says: looked for in the working directory,
    /// then beside the executable and in every folder above it (see ``CatalogueLocator``).
    public static let defaultCataloguePath = "Catalogue/Credit.storekit"
    public static let defaultBundleId = "ai.voicedebrief.app"
    /// `appAppleId` in Server API answers and notifications when `--app-apple-id` is not given: the store's own.
    public static let defaultAppAppleId: Int64 = MockStore.Configuration.defaultAppAppleId
    /// `bundleVersion` when `--bundle-version` is not given: the store's own.
    public static let defaultBundleVersion = MockStore.Configuration.defaultBundleVersion

    public var host: String = "127.0.0.1"
    /// 0: any free port (the one chosen is printed).
    public var port: UInt16 = 0
    public var cataloguePath: String = Self.defaultCataloguePath
    public var dataDirectory: String = Self.defaultDataDirectory
    public var signing: SigningMode = .es256
    /// The shared secret's file (`hs256` only).
    public var secretFile: String?
    public var bundleId: String = Self.defaultBundleId
    public var appAppleId: Int64 = Self.defaultAppAppleId
    public var bundleVersion: String = Self.defaultBundleVersion
    /// `--environment`: `Sandbox` (the default) or `Production`, as Apple writes `environment`.
    public var environment: AppStoreEnvironment = .sandbox
    /// `--clock` and `--time-rate`: the virtual clock (the default), or Apple's sandbox clock at a renewal rate.
    public var clockMode: StoreClockMode = .virtual
    /// Where notifications are POSTed (`--notify`).
    public var notifyURL: String?
    /// `--notify-ca`: a PEM file of the CA an `https://` receiver's certificate must chain to.
    public var notifyCAFile: String?
    /// `--notify-retry-base-ms`: what one of Apple's retry hours lasts here.
    public var notifyRetryBaseMilliseconds: Int64 = 1_000
    /// `--notify-max-attempts`: tries in all, the first included.
    public var notifyMaxAttempts: Int = 6
    /// `--notify-timeout-ms`: how long one try waits for the receiver.
    public var notifyTimeoutMilliseconds: Int64 = 5_000
    /// `--ephemeral`: everything in memory (database, a new test CA), nothing written to disk.
    public var ephemeral = false
    /// `--exit-with-parent`: stop when the process that started this one is gone.
    public var exitWithParent = false
    /// `--parent-pid`: the process `--exit-with-parent` watches, as its launcher says (it knows its own pid; the
    /// store, reading its parent only once it runs, may find it already gone). Nil: the parent the store finds.
    public var parentPid: Int32?
    /// `--max-connections`: connections held open at once.
    public var maxConnections: UInt32 = 4_096
    /// `--idle-timeout`: seconds a connection may wait before it begins a request.
    public var idleTimeoutSeconds: UInt32 = 30
    /// `--request-timeout`: seconds a request has, from its first line, to arrive whole.
    public var requestTimeoutSeconds: UInt32 = 10
    /// `--api-key KEYID=PUBLIC-KEY-FILE`, in the order given.
    public var apiKeys: [APIKeyOption] = []

    /// One `--api-key`: the `kid` and the file holding its public key (PEM; a PEM private key is accepted too).
    public struct APIKeyOption: Equatable, Sendable {
        public var keyId: String
        public var path: String
        public init(keyId: String, path: String) {
            self.keyId = keyId
            self.path = path
        }
    }

    public init() {}

    /// The HTTP server's limits these options set.
    public var serverLimits: HTTPServer.Limits {
        HTTPServer.Limits(
            connectionLimit: maxConnections, idleTimeoutSeconds: idleTimeoutSeconds,
            requestTimeoutSeconds: Double(requestTimeoutSeconds))
    }
}
