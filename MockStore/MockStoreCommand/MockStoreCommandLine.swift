import MockStoreHTTP

/// Parses `mockstore`'s arguments: a pure function of the arguments and environment, tested without a process.
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

    /// The text of `mockstore --help`.
    public static let usage = """
        Usage: mockstore [--host 127.0.0.1] [--port 0] [--catalogue Catalogue/Credit.storekit] [--data DIR]
                         [--signing es256|hs256|none] [--secret-file FILE] [--bundle-id ai.voicedebrief.app]
                         [--app-apple-id N] [--bundle-version V] [--api-key KEYID=PUBLIC-KEY-FILE]...
                         [--notify URL [--notify-retry-base-ms 1000] [--notify-max-attempts 6]
                                       [--notify-timeout-ms 5000] [--notify-ca FILE]]
               mockstore control [--url URL] COMMAND [ARGUMENTS]     (see mockstore control --help)

        A mock App Store sandbox for tests: StoreKit's device API over HTTP, test controls (what SKTestSession
        does), an updates feed, a subset of the App Store Server API and Server Notifications V2; state in
        SQLite; transactions signed as Apple signs them, by a test CA.
        Prints "mockstore listening on http://HOST:PORT" when ready; stops cleanly on SIGINT and SIGTERM.

        Options:
          --host ADDRESS       IPv4 or IPv6 address to listen on (default 127.0.0.1)
          --port N             port to listen on, 0 for any free port (default 0)
          --catalogue FILE     StoreKit configuration file, versions 1.x to 5.x (default Catalogue/Credit.storekit);
                               its settings (_askToBuyEnabled, _storeKitErrors, _failTransactionsEnabled,
                               _storefront, _locale) are the defaults the test controls start from
          --data DIR           where transactions and the test CA are kept (default $MOCKSTORE_DATA,
                               else ./mockstore-data); created if missing
          --signing MODE       how the device API signs: es256: test CA chain, as Apple signs (default);
                               hs256: shared secret; none: unsigned, for negative tests. Server API answers
                               and notifications are always signed by the test CA (ES256)
          --secret-file FILE   the HS256 shared secret: the file's bytes, exactly (mode 0600; with hs256 only)
          --bundle-id ID       the app's bundle id in signed transactions (default ai.voicedebrief.app)
          --app-apple-id N     appAppleId in Server API answers and notifications (default 1234567890)
          --bundle-version V   bundleVersion in notifications (default 1)
          --api-key KEYID=FILE a key that signs Server API bearer tokens: the kid and its public key (PEM; a PEM
                               private key works too). Repeatable. Without any, every well-formed ES256 token is
                               accepted without checking its signature (said on stderr at start)
          --notify URL         POST Server Notifications V2 ({"signedPayload": JWS}) to this http:// or https:// URL
          --notify-retry-base-ms N
                               a failed notification is retried 1, 12, 24, 48 and 72 "hours" after the previous
                               try, as Apple does, an hour lasting N ms here (default 1000)
          --notify-max-attempts N
                               tries in all, the first included, 1 to 6 (default 6)
          --notify-timeout-ms N
                               how long one try waits for the receiver's answer (default 5000)
          --notify-ca FILE     trust this CA (PEM) for an https:// --notify receiver, instead of the system's
          -h, --help           show this help

        Device API (StoreKit):
          GET  /storekit/v1/products?ids=A,B
          POST /storekit/v1/purchases                  {"productId", "quantity"?, "appAccountToken"?}
          GET  /storekit/v1/transactions/unfinished
          GET  /storekit/v1/transactions/updates?after=CURSOR
          POST /storekit/v1/transactions/{id}/finish

        Test controls (SKTestSession), each also a `mockstore control` command:
          POST /test/v1/reset | /test/v1/clear         GET /test/v1/transactions   DELETE /test/v1/transactions/{id}
          POST /test/v1/purchases                      {"productId", ...}: a purchase made outside the app
          POST /test/v1/transactions/{id}/approve | decline | resolve | refund | refund/reverse
          POST /test/v1/transactions/{id}/refund-request | refund-request/decline
          GET|POST /test/v1/settings                   {"askToBuyEnabled", "interruptedPurchasesEnabled",
                                                        "storefront", "locale"}
          GET|POST|DELETE /test/v1/failures[/{api}]    {"api", "error", "once"}
          GET  /test/v1/consumption | /test/v1/notifications | /test/v1/root-certificate

        App Store Server API (bearer JWT, as Apple checks it):
          GET  /inApps/v1/transactions/{transactionId}            Get Transaction Info
          GET  /inApps/v2/history/{transactionId}                 Get Transaction History (also v1)
          GET  /inApps/v2/refund/lookup/{transactionId}           Get Refund History
          GET  /inApps/v1/lookup/{orderId}                        Look Up Order ID
          PUT  /inApps/v1/transactions/consumption/{transactionId} Send Consumption Information (also v2)
          POST /inApps/v1/transactions/{transactionId}/finish     finish a transaction from the server
          POST /inApps/v1/notifications/test                      Request a Test Notification
          GET  /inApps/v1/notifications/test/{token}              Get Test Notification Status

        Exit status: 0 after a clean stop, 1 on a failure it explains, 64 on a usage error.
        """

    /// Parses `arguments` (without the program name). `MOCKSTORE_DATA` in `environment` sets the default data
    /// directory.
    ///
    /// - Throws: ``UsageError`` saying which argument is wrong and why.
    public static func parse(
        _ arguments: [String], environment: [String: String] = [:]
    ) throws(UsageError) -> Command {
        if arguments.first == "control" {
            return try ControlInvocation.parse(Array(arguments.dropFirst()), environment: environment)
        }
        var options = MockStoreOptions()
        if let data = environment["MOCKSTORE_DATA"], !data.isEmpty {
            options.dataDirectory = data
        }
        var given = Set<String>()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "-h" || argument == "--help" {
                return .help
            }
            guard argument.hasPrefix("--") else {
                throw UsageError("unexpected argument \"\(argument)\" (mockstore takes only options; see --help)")
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard knownOptions.contains(name) else {
                throw UsageError("unknown option \(name) (see --help)")
            }
            guard given.insert(name).inserted || repeatableOptions.contains(name) else {
                throw UsageError("\(name) is given more than once")
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                    throw UsageError("\(name) needs a value")
                }
                value = arguments[index]
                index += 1
            }
            try apply(name, value, to: &options)
        }
        try validate(options, given: given)
        return .run(options)
    }

    private static let knownOptions: Set<String> = [
        "--host", "--port", "--catalogue", "--data", "--signing", "--secret-file", "--bundle-id", "--app-apple-id",
        "--bundle-version", "--api-key", "--notify", "--notify-retry-base-ms", "--notify-max-attempts",
        "--notify-timeout-ms", "--notify-ca",
    ]

    /// Options that may be given more than once.
    private static let repeatableOptions: Set<String> = ["--api-key"]

    private static func apply(_ name: String, _ value: String, to options: inout MockStoreOptions) throws(UsageError) {
        guard !value.isEmpty else { throw UsageError("\(name) needs a value, got an empty one") }
        switch name {
        case "--host":
            guard (try? SocketAddress(host: value, port: 0)) != nil else {
                throw UsageError("--host \"\(value)\" is not an IPv4 or IPv6 address (or localhost)")
            }
            options.host = value
        case "--port":
            guard let port = UInt16(value) else {
                throw UsageError("--port \"\(value)\" is not a port number from 0 to 65535")
            }
            options.port = port
        case "--catalogue":
            options.cataloguePath = value
        case "--data":
            options.dataDirectory = value
        case "--signing":
            guard let mode = SigningMode(rawValue: value) else {
                let modes = SigningMode.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError("--signing \"\(value)\" is not one of \(modes)")
            }
            options.signing = mode
        case "--secret-file":
            options.secretFile = value
        case "--bundle-id":
            guard value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else {
                throw UsageError("--bundle-id \"\(value)\" is not a bundle id (letters, digits, \".\" and \"-\")")
            }
            options.bundleId = value
        case "--app-apple-id":
            guard let id = Int64(value), id > 0 else {
                throw UsageError("--app-apple-id \"\(value)\" is not a positive number")
            }
            options.appAppleId = id
        case "--bundle-version":
            options.bundleVersion = value
        case "--api-key":
            guard let equals = value.firstIndex(of: "="), equals != value.startIndex,
                value.index(after: equals) != value.endIndex
            else {
                throw UsageError("--api-key \"\(value)\" is not KEYID=PUBLIC-KEY-FILE")
            }
            let keyId = String(value[..<equals])
            guard !options.apiKeys.contains(where: { $0.keyId == keyId }) else {
                throw UsageError("--api-key \(keyId) is given more than once")
            }
            options.apiKeys.append(
                MockStoreOptions.APIKeyOption(keyId: keyId, path: String(value[value.index(after: equals)...])))
        case "--notify":
            do {
                _ = try HTTPClient.Target(value)
            } catch {
                throw UsageError("--notify \"\(value)\" is not an http(s)://HOST[:PORT]/PATH URL")
            }
            options.notifyURL = value
        case "--notify-ca":
            options.notifyCAFile = value
        case "--notify-retry-base-ms":
            guard let milliseconds = Int64(value), (1...3_600_000).contains(milliseconds) else {
                throw UsageError(
                    "--notify-retry-base-ms \"\(value)\" is not a number of milliseconds from 1 to 3600000")
            }
            options.notifyRetryBaseMilliseconds = milliseconds
        case "--notify-max-attempts":
            guard let attempts = Int(value), (1...6).contains(attempts) else {
                throw UsageError("--notify-max-attempts \"\(value)\" is not a number from 1 to 6")
            }
            options.notifyMaxAttempts = attempts
        case "--notify-timeout-ms":
            guard let milliseconds = Int64(value), (1...600_000).contains(milliseconds) else {
                throw UsageError("--notify-timeout-ms \"\(value)\" is not a number of milliseconds from 1 to 600000")
            }
            options.notifyTimeoutMilliseconds = milliseconds
        default:
            throw UsageError("unknown option \(name) (see --help)")
        }
    }

    private static func validate(_ options: MockStoreOptions, given: Set<String>) throws(UsageError) {
        if options.notifyURL == nil,
            let orphan = ["--notify-retry-base-ms", "--notify-max-attempts", "--notify-timeout-ms"].first(
                where: given.contains)
        {
            throw UsageError("\(orphan) is only used with --notify URL")
        }
        if options.notifyCAFile != nil, options.notifyURL.flatMap({ try? HTTPClient.Target($0) })?.isHTTPS != true {
            throw UsageError("--notify-ca is only used with an https:// --notify URL")
        }
        switch (options.signing, options.secretFile) {
        case (.hs256, nil):
            throw UsageError("--signing hs256 needs --secret-file FILE (the shared secret)")
        case (.es256, .some), (.none, .some):
            throw UsageError("--secret-file is only used with --signing hs256")
        default:
            break
        }
    }
}
