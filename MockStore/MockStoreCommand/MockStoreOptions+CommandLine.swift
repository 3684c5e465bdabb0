import MockStoreHTTP
import MockStoreServer
import OptionParsing
import StoreWire

/// `mockstore` (the server) as a command: each option declared once, here, with the type it is read as, and read
/// into the options it sets; `--help` is generated from the declarations (``MockStoreCommandLine/spec``).
extension MockStoreOptions: ParsableCommand {
    /// `--environment`'s words.
    enum EnvironmentWord: String, ChoiceWords {
        case sandbox, production
    }

    /// `--clock`'s words.
    enum ClockWord: String, ChoiceWords {
        case virtual, sandbox
    }

    static let host = Option.string(.host, "ADDRESS", help: "IPv4 or IPv6 address to listen on (default 127.0.0.1)")
    static let port = Option.integer(
        .port, "N", in: 0...65_535, noun: "a port number",
        help: "port to listen on, 0 for any free port (default 0)")
    static let catalogue = Option.string(
        .catalogue, "FILE",
        help: "StoreKit configuration file, versions 1.x to 5.x (default $MOCKSTORE_CATALOGUE, else "
            + "Catalogue/Credit.storekit in the working directory, beside mockstore or in a folder above it); "
            + "its settings (_askToBuyEnabled, _storeKitErrors, _failTransactionsEnabled, _storefront, "
            + "_locale) are the defaults the test controls start from")
    static let data = Option.string(
        .data, "DIR",
        help: "where transactions and the test CA are kept (default $MOCKSTORE_DATA, else ./mockstore-data); "
            + "created if missing")
    static let exitWithParent = Option.flag(
        .exitWithParent,
        help: "stop (as on SIGTERM) when the process that started this one goes away, so a test runner that "
            + "dies leaves no store listening; told at once on Linux, checked five times a second besides. "
            + "A parent already gone when the store starts (its parent is init, pid 1, and no --parent-pid 1 "
            + "says init started it) stops it at once")
    static let parentPid = Option.integer(
        .parentPid, "PID", in: 1...Int64(Int32.max), noun: "a process id",
        help: "with --exit-with-parent: the pid of the process that starts the store, as that process "
            + "knows it (a launcher passes its own); the store stops at once if its parent is not PID when "
            + "it starts, so a parent that dies while the store starts is never missed")
    static let ephemeral = Option.flag(
        .ephemeral,
        help: "keep everything in memory: the transactions, and a test CA made new at each start; nothing is "
            + "written to disk (no --data). For a fresh store per test")
    static let maxConnections = Option.integer(
        .maxConnections, "N", in: 16...1_000_000, noun: "a number",
        help: "connections held open at once; beyond, the ones idle longest are closed to make room, so "
            + "a new connection is always served (default 4096)")
    static let idleTimeout = Option.integer(
        .idleTimeout, "SECONDS", in: 1...86_400, noun: "a number of seconds",
        help: "a connection that has not begun a request this long after it opened or was last answered is "
            + "closed (default 30)")
    static let requestTimeout = Option.integer(
        .requestTimeout, "SECONDS", in: 1...3_600, noun: "a number of seconds",
        help: "a request must arrive whole (headers and body) this long after its first line, or it is "
            + "answered 408 and its connection closed (default 10)")
    static let signing = Option.choice(
        .signing, SigningMode.self, valueName: "MODE",
        help: "how the device API signs: es256: test CA chain, as Apple signs (default); hs256: shared "
            + "secret; none: unsigned, for negative tests. Server API answers and notifications are always "
            + "signed by the test CA (ES256)")
    static let secretFile = Option.string(
        .secretFile, "FILE",
        help: "the HS256 shared secret: the file's bytes, exactly (mode 0600; with hs256 only)")
    static let bundleId = Option.string(
        .bundleId, "ID", help: "the app's bundle id in signed transactions (default ai.voicedebrief.app)")
    static let appAppleId = Option.integer(
        .appAppleId, "N", in: 1...Int64.max, noun: "a positive number",
        help: "appAppleId in Server API answers and notifications (default 1234567890)")
    static let bundleVersion = Option.string(.bundleVersion, "V", help: "bundleVersion in notifications (default 1)")
    static let environment = Option.choice(
        .environment, EnvironmentWord.self, valueName: "ENV",
        help: "the App Store environment the store plays (default sandbox): environment in everything "
            + "signed; in production notifications are retried and carry appAppleId, in the sandbox a "
            + "notification is tried once and appAppleId is left out, as Apple does")
    static let clock = Option.choice(
        .clock, ClockWord.self, valueName: "CLOCK",
        help: "where the store's dates come from (default virtual): virtual, a clock tests move (control "
            + "clock advance) and speed up (control clock rate, the catalogue's _timeRate); sandbox, the "
            + "wall clock, as Apple's sandbox: periods last what its renewal rate (--time-rate) says, a "
            + "subscription renews at most 12 times, and the clock cannot be moved")
    static let timeRate = Option.choice(
        .timeRate, SandboxRenewalRate.allCases, word: { $0.name }, valueName: "RATE",
        help: "with --clock sandbox: Apple's sandbox renewal rate (default monthlyRenewalEveryFiveMinutes: "
            + "a month lasts 5 minutes, a week 3, a year an hour; ...EveryThirtyMinutes: a week 10 minutes, a "
            + "year 6 hours; ...EveryHour: a week 15 minutes, a year 12 hours)")
    static let apiKey = Option.strings(
        .apiKey, "KEYID=FILE",
        help: "a key that signs Server API bearer tokens: the kid and its public key (PEM; a PEM private key "
            + "works too). Repeatable. Without any, every well-formed ES256 token is accepted without "
            + "checking its signature (said on stderr at start)"
    )
    static let notify = Option.string(
        .notify, "URL",
        help: "POST Server Notifications V2 ({\"signedPayload\": JWS}) to this http:// or https:// URL")
    static let notifyRetryBaseMs = Option.integer(
        .notifyRetryBaseMs, "N", in: 1...3_600_000, noun: "a number of milliseconds",
        help: "a failed notification is retried 1, 12, 24, 48 and 72 \"hours\" after the previous try, as "
            + "Apple does, an hour lasting N ms here (default 1000)")
    static let notifyMaxAttempts = Option.integer(
        .notifyMaxAttempts, "N", in: 1...6, noun: "a number",
        help: "production: tries in all, the first included (default 6); the sandbox tries once")
    static let notifyTimeoutMs = Option.integer(
        .notifyTimeoutMs, "N", in: 1...600_000, noun: "a number of milliseconds",
        help: "how long one try waits for the receiver's answer (default 5000)")
    static let notifyCa = Option.string(
        .notifyCa, "FILE",
        help: "trust this CA (PEM) for an https:// --notify receiver, instead of the system's")

    /// Every option, in the order `mockstore --help` lists them.
    static let declarations: [OptionSpec] = [
        host.spec, port.spec, catalogue.spec, data.spec, exitWithParent.spec, parentPid.spec, ephemeral.spec,
        maxConnections.spec, idleTimeout.spec, requestTimeout.spec, signing.spec, secretFile.spec, bundleId.spec,
        appAppleId.spec, bundleVersion.spec, environment.spec, clock.spec, timeRate.spec, apiKey.spec, notify.spec,
        notifyRetryBaseMs.spec, notifyMaxAttempts.spec, notifyTimeoutMs.spec, notifyCa.spec,
    ]

    public static var configuration: CommandSpec { MockStoreCommandLine.spec }

    /// The options `arguments` give, each read as declared and checked for what its kind cannot say (an address, a
    /// bundle id, a key, a URL); then what only the command line can tell: options given together that do not go
    /// together.
    public init(_ arguments: ParsedArguments) throws(UsageError) {
        self.init()
        try readListening(arguments)
        try readSigning(arguments)
        try readNotifying(arguments)
        try Self.refuseUnpaired(arguments)
    }

    /// Where and how the store listens, and where it keeps what it keeps.
    private mutating func readListening(_ arguments: ParsedArguments) throws(UsageError) {
        if let value = try arguments.value(of: Self.host) {
            guard (try? SocketAddress(host: value, port: 0)) != nil else {
                throw .invalidValue("--host", value, isNot: "an IPv4 or IPv6 address (or localhost)")
            }
            host = value
        }
        if let value = try arguments.value(of: Self.port) { port = UInt16(value) }
        if let value = try arguments.value(of: Self.catalogue) { cataloguePath = value }
        if let value = try arguments.value(of: Self.data) { dataDirectory = value }
        ephemeral = try arguments.value(of: Self.ephemeral)
        exitWithParent = try arguments.value(of: Self.exitWithParent)
        parentPid = try arguments.value(of: Self.parentPid).map { Int32($0) }
        if let value = try arguments.value(of: Self.maxConnections) { maxConnections = UInt32(value) }
        if let value = try arguments.value(of: Self.idleTimeout) { idleTimeoutSeconds = UInt32(value) }
        if let value = try arguments.value(of: Self.requestTimeout) { requestTimeoutSeconds = UInt32(value) }
    }

    /// How the store signs, what it signs, and the keys of the Server API's tokens.
    private mutating func readSigning(_ arguments: ParsedArguments) throws(UsageError) {
        signing = try arguments.value(of: Self.signing) ?? .es256
        secretFile = try arguments.value(of: Self.secretFile)
        if let value = try arguments.value(of: Self.bundleId) {
            guard value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else {
                throw .invalidValue("--bundle-id", value, isNot: "a bundle id (letters, digits, \".\" and \"-\")")
            }
            bundleId = value
        }
        if let value = try arguments.value(of: Self.appAppleId) { appAppleId = value }
        if let value = try arguments.value(of: Self.bundleVersion) { bundleVersion = value }
        if try arguments.value(of: Self.environment) == .production { environment = .production }
        if try arguments.value(of: Self.clock) == .sandbox {
            clockMode = .sandbox(try arguments.value(of: Self.timeRate) ?? .monthlyRenewalEveryFiveMinutes)
        }
        for value in try arguments.value(of: Self.apiKey) {
            guard let equals = value.firstIndex(of: "="), equals != value.startIndex,
                value.index(after: equals) != value.endIndex
            else {
                throw .invalidValue("--api-key", value, isNot: "KEYID=PUBLIC-KEY-FILE")
            }
            let keyId = String(value[..<equals])
            guard !apiKeys.contains(where: { $0.keyId == keyId }) else {
                throw UsageError("--api-key \(keyId) is given more than once")
            }
            apiKeys.append(APIKeyOption(keyId: keyId, path: String(value[value.index(after: equals)...])))
        }
    }

    /// Where notifications go, and how they are tried.
    private mutating func readNotifying(_ arguments: ParsedArguments) throws(UsageError) {
        if let value = try arguments.value(of: Self.notify) {
            do {
                _ = try HTTPClient.Target(value)
            } catch {
                throw .invalidValue("--notify", value, isNot: "an http(s)://HOST[:PORT]/PATH URL")
            }
            notifyURL = value
        }
        notifyCAFile = try arguments.value(of: Self.notifyCa)
        if let value = try arguments.value(of: Self.notifyRetryBaseMs) { notifyRetryBaseMilliseconds = value }
        if let value = try arguments.value(of: Self.notifyMaxAttempts) { notifyMaxAttempts = Int(value) }
        if let value = try arguments.value(of: Self.notifyTimeoutMs) { notifyTimeoutMilliseconds = value }
    }

    /// Options given together that do not go together, which only the command line can tell (the options keep no
    /// trace of what was given and what is a default).
    private static func refuseUnpaired(_ arguments: ParsedArguments) throws(UsageError) {
        if try arguments.value(of: ephemeral), try arguments.value(of: data) != nil {
            throw UsageError("--data is not used with --ephemeral (nothing is written to disk)")
        }
        if try arguments.value(of: notify) == nil,
            let orphan = [notifyRetryBaseMs, notifyMaxAttempts, notifyTimeoutMs].first(where: {
                arguments.flag($0.name)
            })
        {
            throw UsageError("\(orphan.name) is only used with --notify URL")
        }
        if try arguments.value(of: timeRate) != nil, try arguments.value(of: clock) != .sandbox {
            throw UsageError(
                "--time-rate is only used with --clock sandbox (the virtual clock's rate is the catalogue's _timeRate, "
                    + "or control clock rate)")
        }
    }

    /// The rules between the options' values.
    public func validate() throws(UsageError) {
        if parentPid != nil && !exitWithParent {
            throw UsageError("--parent-pid is only used with --exit-with-parent")
        }
        if notifyCAFile != nil, notifyURL.flatMap({ try? HTTPClient.Target($0) })?.isHTTPS != true {
            throw UsageError("--notify-ca is only used with an https:// --notify URL")
        }
        switch (signing, secretFile) {
        case (.hs256, nil):
            throw UsageError("--signing hs256 needs --secret-file FILE (the shared secret)")
        case (.es256, .some), (.none, .some):
            throw UsageError("--secret-file is only used with --signing hs256")
        default:
            break
        }
    }
}
