import Testing

@testable import MockStoreCommand
@testable import MockStoreServer

@Suite struct MockStoreCommandLineTests {
    func options(
        _ arguments: [String], environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
    )
        throws -> MockStoreOptions
    {
        guard case .run(let options) = try MockStoreCommandLine.parse(arguments, environment: environment) else {
            Issue.record("expected options, got help", sourceLocation: sourceLocation)
            return MockStoreOptions()
        }
        return options
    }

    func usageError(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        let error = #expect(throws: UsageError.self, sourceLocation: sourceLocation) {
            try MockStoreCommandLine.parse(arguments)
        }
        return error?.message
    }
}

extension MockStoreCommandLineTests {
    @Test func defaultsMatchTheContract() throws {
        let defaults = try options([])
        #expect(defaults.host == "127.0.0.1")
        #expect(defaults.port == 0)
        #expect(defaults.cataloguePath == "Catalogue/Credit.storekit")
        #expect(defaults.dataDirectory == "mockstore-data")
        #expect(defaults.signing == .es256)
        #expect(defaults.secretFile == nil)
        #expect(defaults.bundleId == "ai.voicedebrief.app")
    }

    @Test func environmentSetsTheDataDirectoryAndTheOptionWins() throws {
        #expect(try options([], environment: ["MOCKSTORE_DATA": "/var/tmp/store"]).dataDirectory == "/var/tmp/store")
        #expect(
            try options(["--data", "here"], environment: ["MOCKSTORE_DATA": "/var/tmp/store"]).dataDirectory
                == "here")
        #expect(try options([], environment: ["MOCKSTORE_DATA": ""]).dataDirectory == "mockstore-data")
    }

    @Test func everyOptionIsRead() throws {
        let parsed = try options([
            "--host", "::1", "--port", "8080", "--catalogue", "c.storekit", "--data", "d", "--signing", "hs256",
            "--secret-file", "s", "--bundle-id", "com.example.app",
        ])
        #expect(parsed.host == "::1")
        #expect(parsed.port == 8080)
        #expect(parsed.cataloguePath == "c.storekit")
        #expect(parsed.dataDirectory == "d")
        #expect(parsed.signing == .hs256)
        #expect(parsed.secretFile == "s")
        #expect(parsed.bundleId == "com.example.app")
    }

    @Test func equalsFormIsRead() throws {
        let parsed = try options(["--port=65535", "--signing=none", "--host=localhost"])
        #expect(parsed.port == 65535)
        #expect(parsed.signing == SigningMode.none)
        #expect(parsed.host == "localhost")
    }

    @Test(arguments: [["--help"], ["-h"], ["--port", "1", "--help"]])
    func helpIsRecognised(arguments: [String]) throws {
        #expect(try MockStoreCommandLine.parse(arguments) == .help)
    }

    @Test func usageNamesEveryOption() {
        for option in ["--host", "--port", "--catalogue", "--data", "--signing", "--secret-file", "--bundle-id"] {
            #expect(MockStoreCommandLine.usage.contains(option), "\(option) is documented")
        }
    }

    @Test(arguments: [
        (["--verbose"], "unknown option --verbose"),
        (["serve"], "unexpected argument \"serve\""),
        (["--port"], "--port needs a value"),
        (["--port", "--data", "x"], "--port needs a value"),
        (["--port", "65536"], "--port \"65536\" is not a port number"),
        (["--port", "-1"], "--port \"-1\" is not a port number"),
        (["--port", "http"], "--port \"http\" is not a port number"),
        (["--port="], "--port needs a value, got an empty one"),
        (["--signing", "rs256"], "--signing \"rs256\" is not one of es256, hs256, none"),
        (["--signing", "hs256"], "--signing hs256 needs --secret-file"),
        (["--secret-file", "s"], "--secret-file is only used with --signing hs256"),
        (["--signing", "none", "--secret-file", "s"], "--secret-file is only used with --signing hs256"),
        (["--host", "example.com"], "--host \"example.com\" is not an IPv4 or IPv6 address"),
        (["--host", "300.1.1.1"], "--host \"300.1.1.1\" is not an IPv4 or IPv6 address"),
        (["--bundle-id", "has space"], "--bundle-id \"has space\" is not a bundle id"),
        (["--port", "1", "--port", "2"], "--port is given more than once"),
    ])
    func usageErrorsSayWhatIsWrong(arguments: [String], message: String) {
        let error = usageError(arguments)
        #expect(error?.hasPrefix(message) == true, "\(error ?? "no error") should start with \(message)")
    }
}

/// Issue 35: `--parent-pid PID`, the parent `--exit-with-parent` watches, as the launcher knows it.
extension MockStoreCommandLineTests {
    @Test func theParentPidIsReadWithExitWithParent() throws {
        let parsed = try options(["--exit-with-parent", "--parent-pid", "4242"])
        #expect(parsed.exitWithParent)
        #expect(parsed.parentPid == 4242)
        #expect(try options(["--exit-with-parent"]).parentPid == nil)
    }

    @Test func aParentPidAloneOrNotAPidIsAUsageError() {
        #expect(usageError(["--parent-pid", "4242"])?.contains("only used with --exit-with-parent") == true)
        #expect(usageError(["--exit-with-parent", "--parent-pid", "0"]) != nil)
        #expect(usageError(["--exit-with-parent", "--parent-pid", "me"]) != nil)
        #expect(MockStoreCommandLine.usage.contains("--parent-pid PID"))
    }
}
