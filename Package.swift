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
        // The owner's P&L: account summaries (signed, totalled), the self-contained page, a summary verifier.
        .target(name: "AccountSummaries", dependencies: ["CreditLedger", "Signing"]),
        .target(name: "PnLReport", dependencies: ["CreditLedger"]),
        .executableTarget(name: "credit-summary-verify", dependencies: ["AccountSummaries"]),
        .executableTarget(name: "credit-bench", dependencies: ["CreditLedger", "Signing", "VoiceDebriefCredit", "COpenSSL"]),

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

        .testTarget(name: "SigningTests", dependencies: ["Signing", "TestSupport"], resources: [.copy("Vectors")]),
        .testTarget(name: "CreditLedgerTests", dependencies: ["CreditLedger", "Signing", "TestSupport"]),
        .testTarget(name: "PaymentsTests", dependencies: ["Payments", "CreditLedger", "Signing", "StoreWire", "TestSupport"]),
        .testTarget(name: "VoiceDebriefCreditTests", dependencies: ["VoiceDebriefCredit", "CreditLedger", "Payments", "TestSupport"]),
        .testTarget(
            name: "PnLTests",
            dependencies: ["CreditLedger", "VoiceDebriefCredit", "AccountSummaries", "PnLReport", "Signing", "TestSupport"],
            exclude: ["png_is_not_blank.py"]
        ),
        .testTarget(name: "MockStoreTests", dependencies: ["MockStoreServer", "Signing", "StoreWire", "TestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["Signing", "StoreWire", "CreditLedger", "TestSupport"]),
        .testTarget(name: "ReliabilityTests", dependencies: ["CreditLedger", "Signing", "Payments", "StoreWire", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
