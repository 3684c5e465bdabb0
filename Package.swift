// swift-tools-version:6.0
import Foundation
import PackageDescription

/// Linker scripts that make `mockstore` take the static archives of OpenSSL, SQLite, libmicrohttpd and libstdc++
/// (MockStore/StaticLinking/README.md). First on its library path, so before the system's shared libraries.
let staticLinking = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/MockStore/StaticLinking"

let package = Package(
    name: "VoiceDebriefCredit",
    // The app's libraries (CreditLedger, Payments, TopUp, VoiceDebriefCredit) are for the iOS app; the mock store and
    // the tools need macOS 15 on a Mac (Synchronization).
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .library(name: "CreditLedger", targets: ["CreditLedger"]),
        .library(name: "VoiceDebriefCredit", targets: ["VoiceDebriefCredit"]),
        .library(name: "Payments", targets: ["Payments"]),
        .library(name: "TopUp", targets: ["TopUp"]),
        .library(name: "Signing", targets: ["Signing"]),
        // StoreKit 2's API on Linux, over a running mockstore: `#if canImport(StoreKit) import StoreKit #else import
        // MockStoreKit #endif`.
        .library(name: "MockStoreKit", targets: ["MockStoreKit"]),
        .library(name: "AppStorePayments", targets: ["AppStorePayments"]),
        // For any Swift test suite (a server's, say) that tests against the mock store: `TestStore`.
        .library(name: "MockStoreTesting", targets: ["MockStoreTesting"]),
        .library(name: "MockStoreInProcess", targets: ["MockStoreInProcess"]),
        // The `credit` command, run in process: `CreditTool.run(arguments:environment:…)`.
        .library(name: "CreditTool", targets: ["CreditTool"]),
        .executable(name: "credit", targets: ["credit"]),
        .executable(name: "credit-core", targets: ["credit-core"]),
        .executable(name: "mockstore", targets: ["mockstore"]),
        .executable(name: "credit-bench", targets: ["credit-bench"]),
    ],
    targets: [
        // C libraries from Debian, through system-library targets. No pkg-config: its -L/usr/lib/x86_64-linux-gnu
        // would come before mockstore's own library path (staticLinking); Debian's headers and libraries are on the
        // default paths.
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // The C library's calls that Swift cannot make (a variadic prctl), for the platform seam only.
        .systemLibrary(name: "CPlatform"),
        // OpenSSL initialised at load, before any other call, with no clean-up at exit (threads may still use it).
        .target(name: "COpenSSLLifetime", linkerSettings: [.linkedLibrary("crypto")]),

        // Arrows point one way: credit -> VoiceDebriefCredit -> TopUp -> (Payments, LedgerEntries);
        // VoiceDebriefCredit -> CreditLedger; Payments -> (StoreWire, Signing); CreditLedger -> the ledger's rooms
        // (below) -> LedgerEntries -> (Signing, DurableFiles); Signing -> (COpenSSL, DurableFiles).
        // The one platform seam: the C library exported, and the calls that differ between Linux and Darwin.
        .target(name: "Platform", dependencies: ["CPlatform"]),
        // The one file-system seam, under Signing, the ledger and Payments; it depends on nothing but Platform.
        .target(
            name: "DurableFiles", dependencies: ["Platform"],
            // Crash points for the reliability suites exist in debug (test) builds only.
            swiftSettings: [.define("CREDIT_FAULTS", .when(configuration: .debug))]
        ),
        // Hashes, MACs, signatures, keys and JWS. COpenSSL on Linux only: on Apple platforms Signing sits over
        // CryptoKit and Security (Signing/CryptoKit).
        .target(
            name: "Signing",
            dependencies: [
                .target(name: "COpenSSL", condition: .when(platforms: [.linux])),
                .target(name: "COpenSSLLifetime", condition: .when(platforms: [.linux])), "DurableFiles", "Platform",
                "Locking",
            ]),
        // The wire models and the contract (every endpoint declared once) shared by the mock store and the store
        // layer; it depends on nothing.
        .target(name: "StoreWire"),
        // The test controls (`/test/v1/`): their endpoints and bodies, for the mock store and its test clients only;
        // the app's store layer (Payments) never links them.
        .target(name: "StoreTestControls", dependencies: ["StoreWire"]),
        // The one lock type: a value shared between threads, changed under its lock.
        .target(name: "Locking"),
        // The one clock protocol, for the ledger and the mock store.
        .target(name: "Clocks", dependencies: ["Locking"]),
        // What data may hold, shown safely: one form for hidden characters, HTML escaping (pure Swift, no imports).
        .target(name: "SafeText"),
        // One declarative option parser for every tool.
        .target(name: "OptionParsing", dependencies: ["SafeText"]),

        // The ledger, in rooms: CreditLedger -> (LedgerSync, LedgerMoney); LedgerSync -> LedgerVerification ->
        // LedgerEntries; LedgerMoney -> LedgerEntries. No room knows voice notes or stores.
        // The entries and their chain: the entry, its codec and canonical form, micro-credits, kinds, timestamps,
        // device ids, refund steps and receipts; the MAC and chain digest; the device files (read in parallel parts,
        // appended by the writer), the data directory, keys and signed heads; `Ledger` over them (its state,
        // checkpoint and counter, head upkeep), the price list and the meter.
        .target(
            name: "LedgerEntries", dependencies: ["Signing", "DurableFiles", "Clocks", "Locking", "Platform"],
            // Crash points for the reliability suites exist in debug (test) builds only.
            swiftSettings: [.define("CREDIT_FAULTS", .when(configuration: .debug))]
        ),
        // The verifier (`credit verify`): every file's lines, MACs, chain, ids across files, heads and receipts,
        // checked without opening the ledger (a large file read in parts); `Ledger.verify`. -> LedgerEntries.
        .target(name: "LedgerVerification", dependencies: ["LedgerEntries", "Signing", "DurableFiles", "Platform"]),
        // The account's devices: join, merge (each file checked by the verifier's parts first), sync through a
        // folder, the devices listed. -> LedgerVerification, LedgerEntries.
        .target(
            name: "LedgerSync",
            dependencies: ["LedgerEntries", "LedgerVerification", "Signing", "DurableFiles", "Platform"],
            // Crash points for the reliability suites exist in debug (test) builds only.
            swiftSettings: [.define("CREDIT_FAULTS", .when(configuration: .debug))]
        ),
        // The P&L and money: costs, what a sale's money splits into, money by period and currency, features' profit
        // and loss, `ProfitAndLossReport.make(ledger:…)`. -> LedgerEntries.
        .target(name: "LedgerMoney", dependencies: ["LedgerEntries"]),
        // Every room re-exported (`@_exported import`), so `import CreditLedger` gives the whole ledger; no code.
        .target(
            name: "CreditLedger", dependencies: ["LedgerEntries", "LedgerVerification", "LedgerSync", "LedgerMoney"]),
        // The store layer: knows no ledger.
        .target(
            name: "Payments",
            dependencies: ["Signing", "StoreWire", "StoreTransport", "DurableFiles", "Platform", "Clocks"]),
        // The one HTTP path of the store clients (URLSession, a whole-request deadline, a bounded body), and the
        // store errors shaped like StoreKit's: under Payments and MockStoreKit.
        .target(name: "StoreTransport", dependencies: ["StoreWire", "Locking"]),
        // StoreKit 2's API over a running mockstore, for Linux: any team's StoreKit 2 code with its import changed.
        .target(name: "MockStoreKit", dependencies: ["StoreWire", "StoreTransport", "Signing", "MockStoreHTTP"]),
        // The app's App Store provider, written once against StoreKit 2's API: Apple's StoreKit on Apple platforms,
        // MockStoreKit on Linux.
        .target(
            name: "AppStorePayments",
            dependencies: [
                "Payments", "StoreWire", .target(name: "MockStoreKit", condition: .when(platforms: [.linux])),
            ]),
        // What joins a store and a ledger, for any app's packs and bundle id.
        .target(name: "TopUp", dependencies: ["Payments", "StoreWire", "LedgerEntries", "DurableFiles"]),
        // The app's own lists (prices, costs, packs, bundle id), the credit screen's model and the owner's store
        // switch: the simulated store or the App Store.
        .target(
            name: "VoiceDebriefCredit",
            dependencies: [
                "TopUp", "Payments", "CreditLedger", "Platform", "AppStorePayments", "SafeText",
                .target(name: "MockStoreKit", condition: .when(platforms: [.linux])),
            ]),
        // The `credit` command as a library (one entry point: arguments, environment, data directory, streams in;
        // the exit status out), so a test suite runs its commands in process; `credit` is a thin `main` over it.
        .target(
            name: "CreditTool",
            dependencies: [
                "VoiceDebriefCredit", "TopUp", "Payments", "StoreWire", "CreditLedger", "Signing", "OptionParsing",
                "Clocks", "PnLReport", "AccountSummaries", "DurableFiles", "Platform",
            ]),
        // `credit` is a small static launcher that blocks the stop signals and becomes `credit-core`, the command
        // itself: a signal sent while the dynamic loader runs stays pending for a watch (Sources/credit-launcher).
        .executableTarget(
            name: "credit", path: "Sources/credit-launcher",
            linkerSettings: [.unsafeFlags(["-static-executable"], .when(platforms: [.linux]))]),
        // `credit-core`, the command: a thin `main` over CreditTool.
        .executableTarget(name: "credit-core", dependencies: ["CreditTool", "Platform"], path: "Sources/credit"),
        // The benchmarks (BENCHMARKS.md): each figure beside a baseline measured in the same run.
        .executableTarget(
            name: "credit-bench",
            dependencies: [
                "CreditLedger", "Signing", "VoiceDebriefCredit", "COpenSSL", "OptionParsing", "MockStoreHTTP",
                "AccountSummaries", "Platform", "StoreWire", "StoreTestControls", "MockStoreKit",
            ]),
        // The owner's P&L: account summaries (signed, totalled), the self-contained page, a summary verifier.
        // Signed account summaries: made from a ledger, read strictly, verified and totalled across accounts.
        .target(
            name: "AccountSummaries",
            dependencies: ["LedgerEntries", "LedgerMoney", "DurableFiles", "Locking", "Signing"]),
        // The P&L page: self-contained HTML, inline SVG charts, no network.
        .target(name: "PnLReport", dependencies: ["LedgerEntries", "LedgerMoney", "SafeText"]),
        // Checks account summaries' signatures and strictness before analytics/pnl.sh's SQL reads them.
        .executableTarget(
            name: "credit-summary-verify",
            dependencies: ["AccountSummaries", "DurableFiles", "OptionParsing", "Platform"]),

        // The mock App Store: mockstore -> MockStoreCommand -> MockStoreServer (the store) -> StoreKitCatalogue,
        // MockStoreSQLite, MockStoreHTTP. The HTTP and SQLite targets know nothing of the store; none knows the ledger.
        // HTTP both ways: the server (libmicrohttpd) and the client (libcurl).
        .target(
            name: "MockStoreHTTP", dependencies: ["StoreWire", "CMicroHTTPD", "CCurl", "Platform", "Clocks"],
            path: "MockStore/MockStoreHTTP"),
        // SQLite (WAL) and group commit.
        .target(name: "MockStoreSQLite", dependencies: ["CSQLite", "Platform"], path: "MockStore/MockStoreSQLite"),
        // The `.storekit` reader (products, subscription groups, offers), storefronts and prices.
        .target(
            name: "StoreKitCatalogue", dependencies: ["StoreWire"], path: "MockStore/StoreKitCatalogue",
            exclude: ["Data"]),
        // The store: device API, test controls, Server API, notifications, signing; a folder an area.
        .target(
            name: "MockStoreServer",
            dependencies: [
                "MockStoreHTTP", "MockStoreSQLite", "StoreKitCatalogue", "Signing", "StoreWire", "StoreTestControls",
                "Clocks", "Platform", "SafeText",
            ],
            path: "MockStore/MockStoreServer"
        ),
        // The command line and the process: options, `mockstore control`, start and serve.
        .target(
            name: "MockStoreCommand",
            dependencies: [
                "MockStoreServer", "MockStoreHTTP", "MockStoreSQLite", "StoreKitCatalogue", "Signing", "StoreWire",
                "StoreTestControls", "OptionParsing", "DurableFiles", "Clocks", "Platform",
            ],
            path: "MockStore/MockStoreCommand"
        ),
        // The test library: starts `mockstore` as a child process, typed test controls, waiting for notifications.
        // It knows only the wire types (StoreWire, StoreTestControls), never the store's code; its Server API client
        // signs bearer tokens with Payments' `ServerAPIToken`.
        .target(
            name: "MockStoreTesting",
            dependencies: ["StoreWire", "StoreTestControls", "StoreTransport", "Platform", "Payments", "Signing"],
            path: "MockStore/MockStoreTesting"),
        // A TestStore in the test's own process (`StoreHost.inProcess`): the store's own code, started as the binary
        // starts it, for tests that are not about the binary.
        .target(
            name: "MockStoreInProcess", dependencies: ["MockStoreCommand", "MockStoreTesting"],
            path: "MockStore/MockStoreInProcess"),
        // The GnuTLS functions the static libmicrohttpd refers to, for mockstore, which serves no HTTPS.
        .target(name: "CGnuTLSAbsent", path: "MockStore/CGnuTLSAbsent"),
        // The Swift runtime, Foundation, OpenSSL, SQLite, libmicrohttpd and libstdc++ linked in: a store per test
        // starts in a few ms, not after the dynamic loader has mapped and relocated them.
        .executableTarget(
            name: "mockstore", dependencies: ["MockStoreCommand", "CGnuTLSAbsent"], path: "MockStore/mockstore",
            linkerSettings: [
                // Not position-independent: nothing to relocate at start (80,000 relocations, 300 page faults).
                // Linux only: Darwin links its system Foundation and has no static standard library.
                .unsafeFlags(
                    ["-static-stdlib", "-L", staticLinking, "-Xclang-linker", "-no-pie"], .when(platforms: [.linux])),
                .linkedLibrary("CoreFoundation", .when(platforms: [.linux])),
                .linkedLibrary("_FoundationCollections", .when(platforms: [.linux])),
                .linkedLibrary("_FoundationCShims", .when(platforms: [.linux])),
                .linkedLibrary("_FoundationICU", .when(platforms: [.linux])),
                .linkedLibrary("stdc++", .when(platforms: [.linux])),
            ]),

        // What more than one test target needs (temporary directories, the built binaries, processes, seeded random,
        // waiting, a store in process, a file system that fails on cue): a regular target on Foundation, Testing, the
        // mock store's test library and the file seam.
        .target(
            name: "TestSupport", dependencies: ["DurableFiles", "MockStoreTesting", "MockStoreInProcess", "StoreWire"],
            path: "Tests/TestSupport"),
        // The suites: one a library (named after it), and end-to-end, P&L and reliability suites across them.
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),

        .testTarget(name: "DurableFilesTests", dependencies: ["DurableFiles", "TestSupport"]),
        .testTarget(name: "OptionParsingTests", dependencies: ["OptionParsing"]),
        .testTarget(name: "StoreWireTests", dependencies: ["StoreWire", "StoreTestControls"]),
        .testTarget(name: "SigningTests", dependencies: ["Signing", "TestSupport"], resources: [.copy("Vectors")]),
        .testTarget(
            name: "CreditLedgerTests",
            dependencies: [
                "CreditLedger", "LedgerEntries", "LedgerVerification", "LedgerSync", "Signing", "DurableFiles",
                "Platform", "TestSupport",
            ]),
        .testTarget(
            name: "PaymentsTests",
            dependencies: ["Payments", "Signing", "StoreWire", "StoreTransport", "TestSupport", "Clocks"]),
        .testTarget(
            name: "MockStoreKitTests",
            dependencies: [
                "MockStoreKit", "AppStorePayments", "Payments", "StoreWire", "Signing", "TestSupport",
                "MockStoreTesting",
                "StoreTestControls",
            ]),
        .testTarget(
            name: "TopUpTests",
            dependencies: ["TopUp", "Payments", "CreditLedger", "Signing", "StoreWire", "TestSupport"]),
        .testTarget(
            name: "VoiceDebriefCreditTests",
            dependencies: ["VoiceDebriefCredit", "TopUp", "CreditLedger", "Payments", "TestSupport"]),
        .testTarget(
            name: "MockStoreTests",
            dependencies: [
                "MockStoreCommand", "MockStoreServer", "MockStoreHTTP", "MockStoreSQLite", "StoreKitCatalogue",
                "Signing",
                "StoreWire", "StoreTestControls", "OptionParsing", "Clocks", "Locking", "TestSupport",
                "MockStoreTesting",
            ]
        ),
        .testTarget(
            name: "PnLTests",
            dependencies: [
                "CreditLedger", "VoiceDebriefCredit", "AccountSummaries", "PnLReport", "Signing", "TestSupport",
            ],
            exclude: ["png_is_not_blank.py"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "Signing", "StoreWire", "CreditLedger", "TestSupport", "MockStoreTesting", "CreditTool", "DurableFiles",
            ]),
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "CreditLedger", "Signing", "Payments", "TopUp", "VoiceDebriefCredit", "StoreWire", "StoreTestControls",
                "DurableFiles", "TestSupport", "CreditTool",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
