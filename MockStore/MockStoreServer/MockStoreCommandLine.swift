/// Parses `mockstore`'s arguments: a pure function of the arguments and environment, tested without a process.
public enum MockStoreCommandLine {
    /// What the command line asks for.
    public enum Command: Equatable, Sendable {
        case help
        case run(MockStoreOptions)
    }

    /// The text of `mockstore --help`.
    public static let usage = """
        Usage: mockstore [--host 127.0.0.1] [--port 0] [--catalogue Catalogue/Credit.storekit] [--data DIR]
                         [--signing es256|hs256|none] [--secret-file FILE] [--bundle-id ai.voicedebrief.app]

        A mock App Store for tests: StoreKit's device API over HTTP, state in SQLite, signed transactions.
        Prints "mockstore listening on http://HOST:PORT" when ready; stops cleanly on SIGINT and SIGTERM.

        Options:
          --host ADDRESS       IPv4 or IPv6 address to listen on (default 127.0.0.1)
          --port N             port to listen on, 0 for any free port (default 0)
          --catalogue FILE     StoreKit configuration file, versions 1.x to 5.x (default Catalogue/Credit.storekit)
          --data DIR           where transactions and the test CA are kept (default $MOCKSTORE_DATA,
                               else ./mockstore-data); created if missing
          --signing MODE       es256: test CA chain, as Apple signs (default); hs256: shared secret;
                               none: unsigned, for negative tests
          --secret-file FILE   the HS256 shared secret: the file's bytes, exactly (mode 0600; with hs256 only)
          --bundle-id ID       the app's bundle id in signed transactions (default ai.voicedebrief.app)
          -h, --help           show this help

        Endpoints:
          GET  /storekit/v1/products?ids=A,B
          POST /storekit/v1/purchases                  {"productId", "quantity"?, "appAccountToken"?}
          GET  /storekit/v1/transactions/unfinished
          POST /storekit/v1/transactions/{id}/finish
          GET  /test/v1/root-certificate               the test root certificate (DER)

        Exit status: 0 after a clean stop, 1 on a failure it explains, 64 on a usage error.
        """

    /// Parses `arguments` (without the program name). `MOCKSTORE_DATA` in `environment` sets the default data
    /// directory.
    ///
    /// - Throws: ``UsageError`` saying which argument is wrong and why.
    public static func parse(
        _ arguments: [String], environment: [String: String] = [:]
    ) throws(UsageError) -> Command {
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
            guard given.insert(name).inserted else {
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
        try validate(options)
        return .run(options)
    }

    private static let knownOptions: Set<String> = [
        "--host", "--port", "--catalogue", "--data", "--signing", "--secret-file", "--bundle-id",
    ]

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
        default:
            throw UsageError("unknown option \(name) (see --help)")
        }
    }

    private static func validate(_ options: MockStoreOptions) throws(UsageError) {
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
