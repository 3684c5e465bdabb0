import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The package's built executables (`credit`, `mockstore`, `credit-bench`), found beside the running test bundle:
/// SwiftPM puts products and test bundles in one folder (`.build/debug`, or the `--scratch-path`'s).
///
/// Overrides, to run the suites against another build:
/// - `RELIABILITY_BIN_DIR=DIR`: every binary from DIR (the reliability suites' name for it, kept);
/// - `<NAME>_BINARY=PATH` (`MOCKSTORE_BINARY`, `CREDIT_BINARY`, `CREDIT_BENCH_BINARY`): that one binary.
public enum Binaries {
    /// Where the binaries are looked for: `RELIABILITY_BIN_DIR`, else the test executable's folder.
    public static let directory: String = {
        if let given = ProcessInfo.processInfo.environment["RELIABILITY_BIN_DIR"], !given.isEmpty { return given }
        return buildDirectory
    }()

    /// The folder of the running test executable (on Darwin, the folder that holds `Foo.xctest`).
    public static let buildDirectory: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let executable =
            count > 0
            ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : CommandLine.arguments[0]
        var directory = (executable as NSString).deletingLastPathComponent
        // On Darwin the test bundle's executable is inside Foo.xctest/Contents/MacOS.
        if directory.hasSuffix("/Contents/MacOS") {
            for _ in 0..<3 { directory = (directory as NSString).deletingLastPathComponent }
        }
        return directory
    }()

    /// The environment variable that names one binary: `mockstore` -> `MOCKSTORE_BINARY`.
    public static func overrideVariable(for name: String) -> String {
        name.uppercased().replacingOccurrences(of: "-", with: "_") + "_BINARY"
    }

    /// Where `name` should be: its override, else `directory/name`.
    public static func expectedPath(_ name: String) -> String {
        if let given = ProcessInfo.processInfo.environment[overrideVariable(for: name)], !given.isEmpty {
            return given
        }
        return directory + "/" + name
    }

    /// The executable `name`, or nil when it is not built.
    public static func path(_ name: String) -> String? {
        let path = expectedPath(name)
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// The executable `name`; a test issue at the caller (and a thrown error) saying how to build it when it is not.
    public static func require(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try #require(
            path(name),
            """
            \(name) is not built: looked for \(expectedPath(name)) (beside the test bundle, or set \
            \(overrideVariable(for: name)) or RELIABILITY_BIN_DIR). Build with `swift build --build-tests` \
            (with the tests' --scratch-path), then `swift test --skip-build`.
            """,
            sourceLocation: sourceLocation)
    }
}

/// Paths in this repository, found from this source file.
public enum Repository {
    /// The repository's root folder.
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        for _ in 0..<3 { url.deleteLastPathComponent() }  // Tests/TestSupport/Binaries.swift
        return url.path
    }()

    /// The App Store catalogue the app and the mock store share.
    public static var catalogue: String { root + "/Catalogue/Credit.storekit" }

    /// A test catalogue of two packs: the app's one (£5.00) and a second (£10.00, `ai.voicedebrief.app.credit.1000`),
    /// for tests of a store that sells more than one product. The app itself sells one pack.
    public static var twoPackCatalogue: String { root + "/Tests/Fixtures/TwoPacks.storekit" }

    /// A catalogue of auto-renewable subscriptions (`.storekit` 5.0): group "Pro" with `com.example.pro.yearly`
    /// (level 1), `com.example.pro.monthly` (2), `com.example.basic.monthly` (3); group "News" with
    /// `com.example.news.weekly`; every kind of offer; and one consumable, `com.example.coins`.
    public static var subscriptionCatalogue: String { root + "/Tests/Fixtures/Subscriptions.storekit" }

    /// The same catalogue in an older shape: `v1` (1.2), `v2` (2.0), `v3` (3.0) or `v4` (4.0).
    public static func subscriptionCatalogue(_ shape: String) -> String {
        root + "/Tests/Fixtures/Subscriptions-\(shape).storekit"
    }
}
