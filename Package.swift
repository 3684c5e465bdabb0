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
        // Payments -> (StoreWire, Signing); CreditLedger -> (Signing, DurableFiles); Signing -> (COpenSSL, DurableFiles).
        // The one file-system seam, under Signing, CreditLedger and Payments; it depends on nothing.
        .target(
            name: "DurableFiles",
            // Crash points for the reliability suites exist in debug (test) builds only.
            swiftSettings: [.define("CREDIT_FAULTS", .when(configuration: .debug))]
        ),
        .target(name: "Signing", dependencies: ["COpenSSL", "DurableFiles"]),
        .target(name: "StoreWire"),
        // One declarative option parser for every tool; it depends on nothing.
        .target(name: "OptionParsing"),
        .target(
            name: "CreditLedger", dependencies: ["Signing", "DurableFiles"],
            // Crash points for the reliability suites exist in debug (test) builds only.
            swiftSettings: [.define("CREDIT_FAULTS", .when(configuration: .debug))]
        ),
        // The store layer: knows no ledger.
        .target(name: "Payments", dependencies: ["Signing", "StoreWire", "DurableFiles"]),
        // What joins a store and a ledger, for any app's packs and bundle id.
        .target(name: "TopUp", dependencies: ["Payments", "CreditLedger", "DurableFiles"]),
        .target(name: "VoiceDebriefCredit", dependencies: ["TopUp", "Payments", "CreditLedger"]),
        .executableTarget(
            name: "credit",
            dependencies: ["VoiceDebriefCredit", "TopUp", "Payments", "CreditLedger", "Signing", "OptionParsing"]),
        .executableTarget(
            name: "credit-bench",
            dependencies: ["CreditLedger", "Signing", "VoiceDebriefCredit", "COpenSSL", "OptionParsing"]),

        // The mock App Store.
        .target(
            name: "MockStoreServer",
            dependencies: ["Signing", "StoreWire", "CSQLite", "CMicroHTTPD", "OptionParsing"],
            path: "MockStore/MockStoreServer"
        ),
        .executableTarget(name: "mockstore", dependencies: ["MockStoreServer"], path: "MockStore/mockstore"),

        // What more than one test target needs (temporary directories, the built binaries, processes, seeded random,
        // waiting): a regular target on Foundation and Testing only, so it depends on nothing under test.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),

        .testTarget(name: "DurableFilesTests", dependencies: ["DurableFiles", "TestSupport"]),
        .testTarget(name: "OptionParsingTests", dependencies: ["OptionParsing"]),
        .testTarget(name: "SigningTests", dependencies: ["Signing", "TestSupport"], resources: [.copy("Vectors")]),
        .testTarget(name: "CreditLedgerTests", dependencies: ["CreditLedger", "Signing", "TestSupport"]),
        .testTarget(name: "PaymentsTests", dependencies: ["Payments", "Signing", "StoreWire", "TestSupport"]),
        .testTarget(name: "TopUpTests", dependencies: ["TopUp", "Payments", "CreditLedger", "Signing", "StoreWire", "TestSupport"]),
        .testTarget(name: "VoiceDebriefCreditTests", dependencies: ["VoiceDebriefCredit", "TopUp", "CreditLedger", "Payments", "TestSupport"]),
        .testTarget(name: "MockStoreTests", dependencies: ["MockStoreServer", "Signing", "StoreWire", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["Signing", "StoreWire", "CreditLedger", "TestSupport"]),
        .testTarget(name: "ReliabilityTests", dependencies: ["CreditLedger", "Signing", "Payments", "TopUp", "VoiceDebriefCredit", "StoreWire", "DurableFiles", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
