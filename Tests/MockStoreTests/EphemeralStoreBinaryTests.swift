import Foundation
import Signing
import StoreTestControls
import StoreWire
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `mockstore --ephemeral`, `mockstore control root-certificate`, the default catalogue found from another working
/// directory, and the message for a port in use: through the real binary.
@Suite struct EphemeralStoreBinaryTests {
    /// Every file and folder under `path`, relative to it.
    static func contents(of path: String) -> [String] {
        (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).sorted()
    }

    /// `mockstore control ARGUMENTS` against `store`, run in this process (the binary's own command line is
    /// ControlCommandLineBinaryTests').
    static func control(_ store: EphemeralMockStore, _ arguments: [String]) async throws -> ProcessResult {
        try await MockStoreHarness.controlInProcess(["control", "--url", store.url] + arguments)
    }
}

extension EphemeralStoreBinaryTests {
    @Test func twoEphemeralStoresAtOnceWriteNothingAndShareNothing() async throws {
        let work = try TemporaryDirectory()
        let home = try TemporaryDirectory()
        let temporary = try TemporaryDirectory()
        var environment = EphemeralMockStore.environment
        environment["HOME"] = home.path
        environment["TMPDIR"] = temporary.path
        // No --catalogue and a working directory outside the repository: the default is found beside the binary.
        let first = try await EphemeralMockStore.start(workingDirectory: work.path, environment: environment)
        let second = try await EphemeralMockStore.start(workingDirectory: work.path, environment: environment)
        #expect(first.port != second.port)
        #expect(first.stderr.contains("data in memory"))

        #expect(try first.purchase() == 200)
        #expect(try first.purchase() == 200)
        #expect(try second.purchase() == 200)
        let firstList = try first.request("GET", TestControls.transactions.path())
        let secondList = try second.request("GET", TestControls.transactions.path())
        #expect(firstList.text.components(separatedBy: "\"transactionId\"").count - 1 == 2)
        #expect(secondList.text.components(separatedBy: "\"transactionId\"").count - 1 == 1)
        // A new test CA for each start.
        let firstRoot = try first.request("GET", SandboxAPI.rootCertificate.path()).body
        let secondRoot = try second.request("GET", SandboxAPI.rootCertificate.path()).body
        #expect(!firstRoot.isEmpty && firstRoot != secondRoot)

        #expect(await first.stop() == 0)
        #expect(await second.stop() == 0)
        #expect(Self.contents(of: work.path) == [], "written in the working directory")
        #expect(Self.contents(of: home.path) == [], "written in HOME")
        #expect(Self.contents(of: temporary.path) == [], "written in TMPDIR")
    }

    @Test func anEphemeralStoreRestartsEmpty() async throws {
        let work = try TemporaryDirectory()
        let store = try await EphemeralMockStore.start(workingDirectory: work.path)
        #expect(try store.purchase() == 200)
        #expect(await store.stop() == 0)
        let again = try await EphemeralMockStore.start(workingDirectory: work.path)
        #expect(try again.request("GET", DeviceAPI.unfinished.path()).text.contains("[]"))
    }

    @Test func ephemeralWithADataDirectoryIsAUsageError() async throws {
        let result = try await ChildProcess.run(
            try Binaries.require("mockstore"), ["--ephemeral", "--data", "somewhere"],
            environment: EphemeralMockStore.environment, timeout: 30)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--data is not used with --ephemeral"))
    }

    @Test func rootCertificateIsPrintedAndWrittenAsPEM() async throws {
        let work = try TemporaryDirectory()
        let store = try await EphemeralMockStore.start(workingDirectory: work.path)
        let der = try store.request("GET", SandboxAPI.rootCertificate.path()).body

        let printed = try await Self.control(store, ["root-certificate"])
        #expect(printed.status == 0)
        #expect(printed.stdout.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        #expect(try Certificate(pemRepresentation: printed.stdout).derRepresentation == der)

        let file = work.file("root.pem")
        let written = try await Self.control(store, ["root-certificate", "--out", file])
        #expect(written.status == 0)
        #expect(written.stdout == "")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text == printed.stdout)

        let unwritable = try await Self.control(store, ["root-certificate", "--out", work.file("missing/root.pem")])
        #expect(unwritable.status == 1)
        #expect(unwritable.stderr.contains("cannot write"))
    }

    @Test func aPortInUseIsSaidOnceInTheStoresOwnWords() async throws {
        let work = try TemporaryDirectory()
        let first = try await EphemeralMockStore.start(workingDirectory: work.path)
        let second = try await ChildProcess.run(
            try Binaries.require("mockstore"), ["--ephemeral", "--port", "\(first.port)"],
            environment: EphemeralMockStore.environment, timeout: 30)
        #expect(second.status == 1)
        #expect(
            second.stderr == "mockstore: error: cannot listen on 127.0.0.1 port \(first.port): the port is in use\n")
        #expect(!second.stderr.contains("Failed to bind"))
    }

    @Test func theCatalogueNamedByTheEnvironmentIsUsed() async throws {
        let work = try TemporaryDirectory()
        var environment = EphemeralMockStore.environment
        environment["MOCKSTORE_CATALOGUE"] = work.file("nowhere.storekit")
        let result = try await ChildProcess.run(
            try Binaries.require("mockstore"), ["--ephemeral"], environment: environment, timeout: 30)
        #expect(result.status == 1)
        #expect(result.stderr.contains(work.file("nowhere.storekit")))
    }
}
