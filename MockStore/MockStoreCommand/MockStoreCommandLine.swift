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
        options: MockStoreOptions.declarations,
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
        var options = try MockStoreOptions.parse(args)
        // The environment's defaults, for what the command line does not say.
        if try args.value(of: MockStoreOptions.data) == nil, let data = environment["MOCKSTORE_DATA"], !data.isEmpty {
            options.dataDirectory = data
        }
        if try args.value(of: MockStoreOptions.catalogue) == nil, let catalogue = environment["MOCKSTORE_CATALOGUE"],
            !catalogue.isEmpty
        {
            options.cataloguePath = catalogue
        }
        return .run(options)
    }
}
