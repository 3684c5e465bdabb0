import Foundation
import Testing

@testable import MockStoreCommand
@testable import MockStoreHTTP

/// The load options on the command line, and where the default catalogue is looked for.
@Suite struct StoreLoadOptionsTests {
    func options(_ arguments: [String], environment: [String: String] = [:]) throws -> MockStoreOptions? {
        guard case .run(let options) = try MockStoreCommandLine.parse(arguments, environment: environment) else {
            return nil
        }
        return options
    }

    /// `path` without `//` or `.` parts, as the locator writes paths.
    static func standard(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }
}

extension StoreLoadOptionsTests {
    @Test func defaultsHoldAWholeSuite() throws {
        let defaults = try #require(try options([]))
        #expect(defaults.ephemeral == false)
        #expect(defaults.maxConnections == 4_096)
        #expect(defaults.idleTimeoutSeconds == 30)
        #expect(defaults.requestTimeoutSeconds == 10)
        #expect(defaults.serverLimits == HTTPServer.Limits())
    }

    @Test func everyLoadOptionIsRead() throws {
        let parsed = try #require(
            try options([
                "--ephemeral", "--max-connections", "2000", "--idle-timeout", "5", "--request-timeout", "2",
            ]))
        #expect(parsed.ephemeral)
        #expect(parsed.serverLimits.connectionLimit == 2_000)
        #expect(parsed.serverLimits.idleTimeoutSeconds == 5)
        #expect(parsed.serverLimits.requestTimeoutSeconds == 2)
    }

    @Test(arguments: [
        ["--ephemeral", "--data", "d"], ["--max-connections", "0"], ["--request-timeout", "0"],
        ["--max-connections", "2000000"], ["--idle-timeout", "x"],
    ])
    func badLoadOptionsAreUsageErrors(arguments: [String]) {
        #expect(throws: UsageError.self) { try MockStoreCommandLine.parse(arguments) }
    }

    @Test func theEnvironmentNamesTheCatalogueAndTheOptionWins() throws {
        #expect(try options([], environment: ["MOCKSTORE_CATALOGUE": "/c.storekit"])?.cataloguePath == "/c.storekit")
        #expect(
            try options(["--catalogue", "mine.storekit"], environment: ["MOCKSTORE_CATALOGUE": "/c.storekit"])?
                .cataloguePath == "mine.storekit")
    }

    @Test func theDefaultCatalogueIsFoundAboveTheExecutable() throws {
        let root = try TemporaryDirectory()
        let work = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: root.file("repo/Catalogue"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: root.file("repo/.build/debug"), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: root.file("repo/Catalogue/Credit.storekit"), contents: Data())
        let found = try CatalogueLocator.locate(
            MockStoreOptions.defaultCataloguePath, workingDirectory: work.path,
            executable: root.file("repo/.build/debug/mockstore"))
        #expect(found == Self.standard(root.file("repo/Catalogue/Credit.storekit")))
        // A catalogue named on the command line is used as given.
        #expect(try CatalogueLocator.locate("x.storekit", workingDirectory: work.path, executable: nil) == "x.storekit")
    }

    @Test func aMissingDefaultCatalogueSaysWhereItWasLookedFor() throws {
        let root = try TemporaryDirectory()
        let work = try TemporaryDirectory()
        let error = #expect(throws: StartupError.self) {
            try CatalogueLocator.locate(
                MockStoreOptions.defaultCataloguePath, workingDirectory: work.path,
                executable: root.file("bin/mockstore"))
        }
        let message = error?.message ?? ""
        #expect(message.contains(Self.standard(work.path + "/Catalogue/Credit.storekit")))
        #expect(message.contains(Self.standard(root.file("bin/Catalogue/Credit.storekit"))))
        #expect(message.contains(Self.standard(root.path + "/Catalogue/Credit.storekit")))
        #expect(message.contains("--catalogue FILE"))
    }
}
