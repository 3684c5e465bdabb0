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

        // Arrows point one way: credit -> VoiceDebriefCredit -> Payments -> CreditLedger -> Signing -> COpenSSL.
        // The one file-system seam, under Signing, CreditLedger and Payments; it depends on nothing.
        .target(
            name: "DurableFiles",
            // Crash points for the reliability suites exist in debug (test) builds only.
            swiftSettings: [.define("CREDIT_FAULTS", .when(configuration: .debug))]
        ),
        .target(name: "Signing", dependencies: ["COpenSSL", "DurableFiles"]),
        .target(name: "StoreWire"),
        .target(
            name: "CreditLedger", dependencies: ["Signing", "DurableFiles"],
            // Crash points for the reliability suites exist in debug (test) builds only.
            swiftSettings: [.define("CREDIT_FAULTS", .when(configuration: .debug))]
        ),
        .target(name: "Payments", dependencies: ["CreditLedger", "Signing", "StoreWire", "DurableFiles"]),
        .target(name: "VoiceDebriefCredit", dependencies: ["Payments", "CreditLedger"]),
        .executableTarget(name: "credit", dependencies: ["VoiceDebriefCredit", "Payments", "CreditLedger", "Signing"]),
        .executableTarget(
            name: "credit-bench", dependencies: ["CreditLedger", "Signing", "VoiceDebriefCredit", "COpenSSL"]),

        // The mock App Store.
        .target(
            name: "MockStoreServer",
            dependencies: ["Signing", "StoreWire", "CSQLite", "CMicroHTTPD"],
            path: "MockStore/MockStoreServer"
        ),
        .executableTarget(name: "mockstore", dependencies: ["MockStoreServer"], path: "MockStore/mockstore"),

        // What more than one test target needs (temporary directories, the built binaries, processes, seeded random,
        // waiting): a regular target on Foundation and Testing only, so it depends on nothing under test.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),

        .testTarget(name: "DurableFilesTests", dependencies: ["DurableFiles", "TestSupport"]),
        .testTarget(name: "SigningTests", dependencies: ["Signing", "TestSupport"], resources: [.copy("Vectors")]),
        .testTarget(
            name: "CreditLedgerTests", dependencies: ["CreditLedger", "Signing", "DurableFiles", "TestSupport"]),
        .testTarget(
            name: "PaymentsTests", dependencies: ["Payments", "CreditLedger", "Signing", "StoreWire", "TestSupport"]),
        .testTarget(
            name: "VoiceDebriefCreditTests",
            dependencies: ["VoiceDebriefCredit", "CreditLedger", "Payments", "TestSupport"]),
        .testTarget(name: "MockStoreTests", dependencies: ["MockStoreServer", "Signing", "StoreWire", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["Signing", "StoreWire", "CreditLedger", "TestSupport"]),
        .testTarget(
            name: "ReliabilityTests",
            dependencies: ["CreditLedger", "Signing", "Payments", "StoreWire", "DurableFiles", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
