// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "VoiceDebriefCredit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CreditLedger", targets: ["CreditLedger"]),
        .library(name: "VoiceDebriefCredit", targets: ["VoiceDebriefCredit"]),
        .library(name: "Payments", targets: ["Payments"]),
        .library(name: "TopUp", targets: ["TopUp"]),
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

        // Arrows point one way: credit -> VoiceDebriefCredit -> TopUp -> (Payments, CreditLedger);
        // Payments -> (StoreWire, Signing); CreditLedger -> Signing -> COpenSSL.
        .target(name: "Signing", dependencies: ["COpenSSL"]),
        .target(name: "StoreWire"),
        .target(
            name: "CreditLedger", dependencies: ["Signing"],
            // Crash points for the reliability suites exist in debug (test) builds only.
            swiftSettings: [.define("CREDIT_FAULTS", .when(configuration: .debug))]
        ),
        // The store layer: knows no ledger.
        .target(name: "Payments", dependencies: ["Signing", "StoreWire"]),
        // What joins a store and a ledger, for any app's packs and bundle id.
        .target(name: "TopUp", dependencies: ["Payments", "CreditLedger"]),
        .target(name: "VoiceDebriefCredit", dependencies: ["TopUp", "Payments", "CreditLedger"]),
        .executableTarget(
            name: "credit", dependencies: ["VoiceDebriefCredit", "TopUp", "Payments", "CreditLedger", "Signing"]),
        .executableTarget(
            name: "credit-bench", dependencies: ["CreditLedger", "Signing", "VoiceDebriefCredit", "COpenSSL"]),

        // The mock App Store.
        .target(
            name: "MockStoreServer",
            dependencies: ["Signing", "StoreWire", "CSQLite", "CMicroHTTPD"],
            path: "MockStore/MockStoreServer"
        ),
        .executableTarget(name: "mockstore", dependencies: ["MockStoreServer"], path: "MockStore/mockstore"),

        .testTarget(name: "SigningTests", dependencies: ["Signing"], resources: [.copy("Vectors")]),
        .testTarget(name: "CreditLedgerTests", dependencies: ["CreditLedger", "Signing"]),
        .testTarget(name: "PaymentsTests", dependencies: ["Payments", "Signing", "StoreWire"]),
        .testTarget(name: "TopUpTests", dependencies: ["TopUp", "Payments", "CreditLedger", "Signing", "StoreWire"]),
        .testTarget(
            name: "VoiceDebriefCreditTests", dependencies: ["VoiceDebriefCredit", "TopUp", "CreditLedger", "Payments"]),
        .testTarget(name: "MockStoreTests", dependencies: ["MockStoreServer", "Signing", "StoreWire"]),
        .testTarget(name: "EndToEndTests", dependencies: ["Signing", "StoreWire", "CreditLedger"]),
        .testTarget(
            name: "ReliabilityTests",
            dependencies: ["CreditLedger", "Signing", "Payments", "TopUp", "VoiceDebriefCredit", "StoreWire"]),
    ],
    swiftLanguageModes: [.v6]
)
