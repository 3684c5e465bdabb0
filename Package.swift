// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "VoiceDebriefCredit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CreditLedger", targets: ["CreditLedger"]),
        .library(name: "VoiceDebriefCredit", targets: ["VoiceDebriefCredit"]),
        .library(name: "Payments", targets: ["Payments"]),
        .library(name: "Signing", targets: ["Signing"]),
        .executable(name: "credit", targets: ["credit"]),
        .executable(name: "mockstore", targets: ["mockstore"]),
        .executable(name: "credit-bench", targets: ["credit-bench"]),
    ],
    targets: [
        // C libraries from Debian, through system-library targets.
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),

        // Arrows point one way: credit -> VoiceDebriefCredit -> Payments -> CreditLedger -> Signing -> COpenSSL.
        .target(name: "Signing", dependencies: ["COpenSSL"]),
        .target(name: "StoreWire"),
        .target(
            name: "CreditLedger", dependencies: ["Signing"],
            // Crash points for the reliability suites exist in debug (test) builds only.
            swiftSettings: [.define("CREDIT_FAULTS", .when(configuration: .debug))]
        ),
        .target(name: "Payments", dependencies: ["CreditLedger", "Signing", "StoreWire"]),
        .target(name: "VoiceDebriefCredit", dependencies: ["Payments", "CreditLedger"]),
        .executableTarget(name: "credit", dependencies: ["VoiceDebriefCredit", "Payments", "CreditLedger", "Signing"]),
        .executableTarget(name: "credit-bench", dependencies: ["CreditLedger", "Signing", "VoiceDebriefCredit", "COpenSSL", "MockStoreHTTP"]),

        // The mock App Store: mockstore -> MockStoreCommand -> MockStoreServer (the store) -> StoreKitCatalogue,
        // MockStoreSQLite, MockStoreHTTP. The HTTP and SQLite targets know nothing of the store; none knows the ledger.
        .target(name: "MockStoreHTTP", dependencies: ["StoreWire", "CMicroHTTPD", "CCurl"], path: "MockStore/MockStoreHTTP"),
        .target(name: "MockStoreSQLite", dependencies: ["CSQLite"], path: "MockStore/MockStoreSQLite"),
        .target(name: "StoreKitCatalogue", path: "MockStore/StoreKitCatalogue"),
        .target(
            name: "MockStoreServer",
            dependencies: ["MockStoreHTTP", "MockStoreSQLite", "StoreKitCatalogue", "Signing", "StoreWire"],
            path: "MockStore/MockStoreServer"
        ),
        .target(
            name: "MockStoreCommand",
            dependencies: ["MockStoreServer", "MockStoreHTTP", "StoreKitCatalogue", "Signing", "StoreWire"],
            path: "MockStore/MockStoreCommand"
        ),
        .executableTarget(name: "mockstore", dependencies: ["MockStoreCommand"], path: "MockStore/mockstore"),

        .testTarget(name: "SigningTests", dependencies: ["Signing"], resources: [.copy("Vectors")]),
        .testTarget(name: "CreditLedgerTests", dependencies: ["CreditLedger", "Signing"]),
        .testTarget(name: "PaymentsTests", dependencies: ["Payments", "CreditLedger", "Signing", "StoreWire"]),
        .testTarget(name: "VoiceDebriefCreditTests", dependencies: ["VoiceDebriefCredit", "CreditLedger", "Payments"]),
        .testTarget(
            name: "MockStoreTests",
            dependencies: [
                "MockStoreCommand", "MockStoreServer", "MockStoreHTTP", "MockStoreSQLite", "StoreKitCatalogue", "Signing",
                "StoreWire",
            ]
        ),
        .testTarget(name: "EndToEndTests", dependencies: ["Signing", "StoreWire", "CreditLedger"]),
        .testTarget(name: "ReliabilityTests", dependencies: ["CreditLedger", "Signing", "Payments", "StoreWire"]),
    ],
    swiftLanguageModes: [.v6]
)
