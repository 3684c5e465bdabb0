import MockStoreHTTP
import MockStoreServer
import OptionParsing
import StoreWire

/// Parses `mockstore`'s arguments: a pure function of the arguments and environment, tested without a process.
/// The options are declared in ``spec``; `--help` is generated from it.
public enum MockStoreCommandLine {
    /// What the command line asks for.
    public enum Command: Equatable, Sendable {
        case help
        case run(MockStoreOptions)
        /// `mockstore control …`: one test control against a running store.
        case control(ControlInvocation)
        /// `mockstore control --help`.
        case controlHelp
    }

    /// The word that makes the command line a control (`mockstore control …`, declared in ``ControlInvocation``)
    /// rather than a store to start.
    public static let controlWord = "control"

    /// The options of `mockstore` (the server); `mockstore control` is declared in ``ControlInvocation``.
    public static let spec = CommandSpec(
        "mockstore",
        discussion: """
            A mock App Store sandbox for tests: StoreKit's device API over HTTP, test controls (what SKTestSession
            does), an updates feed, a subset of the App Store Server API and Server Notifications V2; state in
            SQLite; transactions signed as Apple signs them, by a test CA.
            Prints "mockstore listening on http://HOST:PORT" when ready; stops cleanly on SIGINT and SIGTERM.
            """,
        options: [
            .string(.host, "ADDRESS", help: "IPv4 or IPv6 address to listen on (default 127.0.0.1)"),
            .integer(
                .port, "N", in: 0...65_535, noun: "a port number",
                help: "port to listen on, 0 for any free port (default 0)"),
            .string(
                .catalogue, "FILE",
                help: "StoreKit configuration file, versions 1.x to 5.x (default $MOCKSTORE_CATALOGUE, else "
                    + "Catalogue/Credit.storekit in the working directory, beside mockstore or in a folder above it); "
                    + "its settings (_askToBuyEnabled, _storeKitErrors, _failTransactionsEnabled, _storefront, "
                    + "_locale) are the defaults the test controls start from"),
            .string(
                .data, "DIR",
                help: "where transactions and the test CA are kept (default $MOCKSTORE_DATA, else ./mockstore-data); "
                    + "created if missing"),
            .flag(
                .exitWithParent,
                help: "stop (as on SIGTERM) when the process that started this one goes away, so a test runner that "
                    + "dies leaves no store listening; told at once on Linux, checked five times a second besides. "
                    + "A parent already gone when the store starts (its parent is init, pid 1, and no --parent-pid 1 "
                    + "says init started it) stops it at once"),
            .integer(
                .parentPid, "PID", in: 1...Int64(Int32.max), noun: "a process id",
                help: "with --exit-with-parent: the pid of the process that starts the store, as that process "
                    + "knows it (a launcher passes its own); the store stops at once if its parent is not PID when "
                    + "it starts, so a parent that dies while the store starts is never missed"),
            .flag(
                .ephemeral,
                help: "keep everything in memory: the transactions, and a test CA made new at each start; nothing is "
                    + "written to disk (no --data). For a fresh store per test"),
            .integer(
                .maxConnections, "N", in: 16...1_000_000, noun: "a number",
                help: "connections held open at once; beyond, the ones idle longest are closed to make room, so "
                    + "a new connection is always served (default 4096)"),
            .integer(
                .idleTimeout, "SECONDS", in: 1...86_400, noun: "a number of seconds",
                help: "a connection that has not begun a request this long after it opened or was last answered is "
                    + "closed (default 30)"),
            .integer(
                .requestTimeout, "SECONDS", in: 1...3_600, noun: "a number of seconds",
                help: "a request must arrive whole (headers and body) this long after its first line, or it is "
                    + "answered 408 and its connection closed (default 10)"),

            .choice(
                .signing, SigningMode.allCases.map(\.rawValue), valueName: "MODE",
                help: "how the device API signs: es256: test CA chain, as Apple signs (default); hs256: shared "
                    + "secret; none: unsigned, for negative tests. Server API answers and notifications are always "
                    + "signed by the test CA (ES256)"),
            .string(
                .secretFile, "FILE",
                help: "the HS256 shared secret: the file's bytes, exactly (mode 0600; with hs256 only)"),
            .string(
                .bundleId, "ID", help: "the app's bundle id in signed transactions (default ai.voicedebrief.app)"),
            .integer(
                .appAppleId, "N", in: 1...Int64.max, noun: "a positive number",
                help: "appAppleId in Server API answers and notifications (default 1234567890)"),
            .string(.bundleVersion, "V", help: "bundleVersion in notifications (default 1)"),
            .choice(
                .environment, ["sandbox", "production"], valueName: "ENV",
                help: "the App Store environment the store plays (default sandbox): environment in everything "
                    + "signed; in production notifications are retried and carry appAppleId, in the sandbox a "
                    + "notification is tried once and appAppleId is left out, as Apple does"),
            .choice(
                .clock, ["virtual", "sandbox"], valueName: "CLOCK",
                help: "where the store's dates come from (default virtual): virtual, a clock tests move (control "
                    + "clock advance) and speed up (control clock rate, the catalogue's _timeRate); sandbox, the "
                    + "wall clock, as Apple's sandbox: periods last what its renewal rate (--time-rate) says, a "
                    + "subscription renews at most 12 times, and the clock cannot be moved"),
            .choice(
                .timeRate, SandboxRenewalRate.allCases.map(\.name), valueName: "RATE",
                help: "with --clock sandbox: Apple's sandbox renewal rate (default monthlyRenewalEveryFiveMinutes: "
                    + "a month lasts 5 minutes, a week 3, a year an hour; ...EveryThirtyMinutes: a week 10 minutes, a "
                    + "year 6 hours; ...EveryHour: a week 15 minutes, a year 12 hours)"),
            .string(
                .apiKey, "KEYID=FILE",
                help: "a key that signs Server API bearer tokens: the kid and its public key (PEM; a PEM private key "
                    + "works too). Repeatable. Without any, every well-formed ES256 token is accepted without "
                    + "checking its signature (said on stderr at start)"
            ).repeatable(),
            .string(
                .notify, "URL",
                help: "POST Server Notifications V2 ({\"signedPayload\": JWS}) to this http:// or https:// URL"),
            .integer(
                .notifyRetryBaseMs, "N", in: 1...3_600_000, noun: "a number of milliseconds",
                help: "a failed notification is retried 1, 12, 24, 48 and 72 \"hours\" after the previous try, as "
                    + "Apple does, an hour lasting N ms here (default 1000)"),
            .integer(
                .notifyMaxAttempts, "N", in: 1...6, noun: "a number",
                help: "production: tries in all, the first included (default 6); the sandbox tries once"),
            .integer(
                .notifyTimeoutMs, "N", in: 1...600_000, noun: "a number of milliseconds",
                help: "how long one try waits for the receiver's answer (default 5000)"),
            .string(
                .notifyCa, "FILE",
                help: "trust this CA (PEM) for an https:// --notify receiver, instead of the system's"),
        ],
        additionalUsage: ["mockstore control [--url URL] COMMAND [ARGUMENTS]     (see mockstore control --help)"],
        epilogue: """
            Device API (StoreKit):
            \(EndpointListing.device)
              (header X-Device-Verification-ID: UUID, for deviceVerification; header X-Mock-Customer: NAME, the
               customer whose device it is, each with their own purchases, subscriptions, eligibility, refunds and
               storefront: without it, the default customer; an unknown name is 404/4040020)

            Test controls (SKTestSession), each also a `mockstore control` command:
            \(EndpointListing.testControls)
              (controls act for X-Mock-Customer's customer, or for the customer of the transaction they name)

            App Store Server API (bearer JWT, as Apple checks it; each answer is for the customer of the
            transaction id given, and has no other customer's transactions):
            \(EndpointListing.server)

            Load: up to --max-connections connections at once, each on a thread of its own (an idle one sleeps);
            beyond, the connections idle longest are closed (never one whose request is in), so a new connection is
            always served. A request must arrive whole within --request-timeout of its first line, and a connection
            must begin one within --idle-timeout, or it is closed. A notification receiver's answer is read up to
            64 KiB (its status decides).

            Exit status: 0 after a clean stop, 1 on a failure it explains, 64 on a usage error.
            """)

    /// The text of `mockstore --help`.
    public static let usage = spec.helpText

    /// Parses `arguments` (without the program name). `MOCKSTORE_DATA` in `environment` sets the default data
    /// directory.
    ///
    /// - Throws: ``UsageError`` saying which argument is wrong and why.
    public static func parse(
        _ arguments: [String], environment: [String: String] = [:]
    ) throws(UsageError) -> Command {
        if arguments.first == controlWord {
            return try ControlInvocation.parse(Array(arguments.dropFirst()), environment: environment)
        }
        guard case .run(let args) = try spec.parse(arguments) else { return .help }
        var options = MockStoreOptions()
        if let data = environment["MOCKSTORE_DATA"], !data.isEmpty {
            options.dataDirectory = data
        }
        if let catalogue = environment["MOCKSTORE_CATALOGUE"], !catalogue.isEmpty {
            options.cataloguePath = catalogue
        }
        try read(args, into: &options)
        try validate(options, given: args)
        return .run(options)
    }

    /// Copies what the parser read into the options, checking what the declarations cannot.
    private static func read(_ args: ParsedArguments, into options: inout MockStoreOptions) throws(UsageError) {
        if let value = args.string(.host) {
            guard (try? SocketAddress(host: value, port: 0)) != nil else {
                throw .invalidValue(
                    "--host", value, isNot: "an IPv4 or IPv6 address (or localhost)", command: args.path)
            }
            options.host = value
        }
        if let port = args.integer(.port) { options.port = UInt16(port) }
        if let value = args.string(.catalogue) { options.cataloguePath = value }
        if let value = args.string(.data) { options.dataDirectory = value }
        options.ephemeral = args.flag(.ephemeral)
        options.exitWithParent = args.flag(.exitWithParent)
        if let pid = args.integer(.parentPid) { options.parentPid = Int32(pid) }
        if let value = args.integer(.maxConnections) { options.maxConnections = UInt32(value) }
        if let value = args.integer(.idleTimeout) { options.idleTimeoutSeconds = UInt32(value) }
        if let value = args.integer(.requestTimeout) { options.requestTimeoutSeconds = UInt32(value) }

        if let value = args.string(.signing), let mode = SigningMode(rawValue: value) { options.signing = mode }
        options.secretFile = args.string(.secretFile)
        if let value = args.string(.bundleId) {
            guard value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else {
                throw .invalidValue(
                    "--bundle-id", value, isNot: "a bundle id (letters, digits, \".\" and \"-\")", command: args.path)
            }
            options.bundleId = value
        }
        if let id = args.integer(.appAppleId) { options.appAppleId = id }
        if let value = args.string(.bundleVersion) { options.bundleVersion = value }
        if let value = args.string(.environment) {
            options.environment =
                value == "production" ? .production : .sandbox
        }
        if args.string(.clock) == "sandbox" {
            let rate = args.string(.timeRate).flatMap(SandboxRenewalRate.init(rawValue:))
            options.clockMode = .sandbox(rate ?? .monthlyRenewalEveryFiveMinutes)
        }
        for value in args.strings(.apiKey) {
            guard let equals = value.firstIndex(of: "="), equals != value.startIndex,
                value.index(after: equals) != value.endIndex
            else {
                throw .invalidValue("--api-key", value, isNot: "KEYID=PUBLIC-KEY-FILE", command: args.path)
            }
            let keyId = String(value[..<equals])
            guard !options.apiKeys.contains(where: { $0.keyId == keyId }) else {
                throw UsageError("--api-key \(keyId) is given more than once", command: args.path)
            }
            options.apiKeys.append(
                MockStoreOptions.APIKeyOption(keyId: keyId, path: String(value[value.index(after: equals)...])))
        }
        if let value = args.string(.notify) {
            do {
                _ = try HTTPClient.Target(value)
            } catch {
                throw .invalidValue("--notify", value, isNot: "an http(s)://HOST[:PORT]/PATH URL", command: args.path)
            }
            options.notifyURL = value
        }
        if let value = args.string(.notifyCa) { options.notifyCAFile = value }
        if let milliseconds = args.integer(.notifyRetryBaseMs) {
            options.notifyRetryBaseMilliseconds = milliseconds
        }
        if let attempts = args.integer(.notifyMaxAttempts) { options.notifyMaxAttempts = Int(attempts) }
        if let milliseconds = args.integer(.notifyTimeoutMs) { options.notifyTimeoutMilliseconds = milliseconds }
    }

    /// The rules between options.
    private static func validate(_ options: MockStoreOptions, given args: ParsedArguments) throws(UsageError) {
        if options.ephemeral && args.flag(.data) {
            throw UsageError("--data is not used with --ephemeral (nothing is written to disk)", command: args.path)
        }
        if options.parentPid != nil && !options.exitWithParent {
            throw UsageError("--parent-pid is only used with --exit-with-parent", command: args.path)
        }
        if options.notifyURL == nil,
            let orphan = [OptionName.notifyRetryBaseMs, .notifyMaxAttempts, .notifyTimeoutMs].first(where: args.flag)
        {
            throw UsageError("\(orphan) is only used with --notify URL", command: args.path)
        }
        if options.notifyCAFile != nil, options.notifyURL.flatMap({ try? HTTPClient.Target($0) })?.isHTTPS != true {
            throw UsageError("--notify-ca is only used with an https:// --notify URL", command: args.path)
        }
        if args.flag(.timeRate), options.clockMode.sandboxRate == nil {
            throw UsageError(
                "--time-rate is only used with --clock sandbox (the virtual clock's rate is the catalogue's _timeRate, "
                    + "or control clock rate)", command: args.path)
        }
        switch (options.signing, options.secretFile) {
        case (.hs256, nil):
            throw UsageError("--signing hs256 needs --secret-file FILE (the shared secret)", command: args.path)
        case (.es256, .some), (.none, .some):
            throw UsageError("--secret-file is only used with --signing hs256", command: args.path)
        default:
            break
        }
    }
}
