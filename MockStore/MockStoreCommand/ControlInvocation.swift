import DurableFiles
import Foundation
import MockStoreHTTP
import OptionParsing
import Signing
import StoreTestControls
import StoreWire

/// `mockstore control [--url URL] COMMAND [ARGUMENTS]`: one test control sent to a running store. Parsing is a pure
/// function of the arguments (tested without a process); ``run()`` sends the request.
public struct ControlInvocation: Equatable, Sendable {
    /// The store's base URL, e.g. `http://127.0.0.1:8080`.
    public var url: String
    public var method: String
    /// The path under the base URL, e.g. `/test/v1/transactions/2000000000000001/refund`.
    public var path: String
    /// The JSON body, if the control takes one.
    public var body: [UInt8]?
    /// What is done with the answer.
    public var output: Output
    /// The customer the control acts for (`--customer`, sent as `X-Mock-Customer`); `nil`: the default customer, or
    /// the customer of the transaction the control names.
    public var customer: String?
    /// A file the body is made from when the control runs (parsing reads no file): one that is not there, or does
    /// not hold what it should, is a failure (exit 1), not a usage error.
    public var input: Input?

    /// A file a control reads when it runs, to make its body.
    public enum Input: Equatable, Sendable {
        /// `offer-key KEYID FILE`: the body is `{"keyId", "publicKey"}`, the public key of the PEM key in `file`.
        case offerKey(keyId: String, file: String)
    }

    /// What a control does with the store's answer.
    public enum Output: Equatable, Sendable {
        /// Prints its JSON, indented.
        case json
        /// `root-certificate`: the answer is a DER certificate, printed as PEM, or written as PEM to the file.
        case certificatePEM(file: String?)
        /// `wait-notification`: the notifications list asked for again until enough have been recorded.
        case waitNotification(NotificationWait)
        /// `notifications`: the answer is the list's first page; the rest are asked for, and every page printed as
        /// one list.
        case notificationList
    }

    /// `request` sent to the store at `url`.
    init(url: String, request: ControlRequest, output: Output = .json, customer: String? = nil) {
        self.init(
            url: url, method: request.method, path: request.target, body: request.body, output: output,
            customer: customer
        )
    }

    /// `plan` sent to the store at `url`.
    init(url: String, plan: ControlPlan, customer: String?) {
        self.init(url: url, request: plan.request, output: plan.output, customer: customer)
        input = plan.input
    }

    public init(
        url: String, method: String, path: String, body: [UInt8]? = nil, output: Output = .json,
        customer: String? = nil, input: Input? = nil
    ) {
        self.url = url
        self.method = method
        self.path = path
        self.body = body
        self.output = output
        self.customer = customer
        self.input = input
    }

    /// `--url URL`: the store's listening URL.
    static let urlOption = Option.string(
        .url, "URL", help: "the store's listening URL (default $MOCKSTORE_URL)"
    ).inherited()
    /// `--customer NAME`: the customer the control acts for.
    static let customerOption = Option.string(
        .customer, "NAME",
        help: "the customer the control acts for (default: the default customer; a control given a "
            + "transaction id acts for its customer, and with --customer only on that customer's)"
    ).inherited()

    /// `mockstore control`, declared: its own options, then every control command (``ControlCommands/all``) with
    /// its words and options.
    public static let spec = CommandSpec(
        "mockstore control",
        discussion: """
            Sends one test control to a running mockstore (the URL of its listening line; default $MOCKSTORE_URL) and
            prints its JSON answer. What SKTestSession does in Xcode, over HTTP under /test/v1/.
            """,
        options: [urlOption.spec, customerOption.spec],
        subcommands: ControlCommands.all.map { $0.configuration },
        subcommandNoun: "control command", commandListShowsOptions: true,
        epilogue: """
            Exit status: 0 when the store accepted the control; 1 when it refused it, cannot be reached, or a file
            is not there or cannot be read or written (the reason on stderr); 64 on a usage error, a word the
            command does not take (an API, error, reason, storefront or notification type) included.
            """)

    /// The text of `mockstore control --help`.
    public static let usage = spec.helpText

    /// Parses the arguments after `control`: the command declared by the name given builds what is sent.
    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError)
        -> MockStoreCommandLine.Command
    {
        try SubscriptionControls.Clock.refuseNegativeDuration(arguments)
        guard case .run(let args) = try spec.parse(arguments) else { return .controlHelp }
        guard let url = try args.value(of: urlOption) ?? environment["MOCKSTORE_URL"], !url.isEmpty else {
            throw UsageError(
                "mockstore control needs --url URL (or MOCKSTORE_URL): the store's listening URL", command: args.path)
        }
        do {
            _ = try HTTPClient.Target(url)
        } catch {
            throw .invalidValue("--url", url, isNot: "an http://HOST:PORT URL", command: args.path)
        }
        guard let type = ControlCommands.named(args.command) else {
            throw UsageError(
                kind: .unknownCommand(args.command), message: "unknown control command \(quoted(args.command))",
                command: args.path)
        }
        let customer = type.actsForCustomer ? try args.value(of: customerOption) : nil
        do {
            try ControlWords.checkCustomerName(customer, option: .customer)
        } catch {
            throw UsageError(kind: error.kind, message: error.message, command: args.path)
        }
        let command = try type.parse(args)
        return .control(ControlInvocation(url: url, plan: command.plan(), customer: customer))
    }

    /// What running the control printed and how it ended.
    public struct Outcome: Equatable, Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// Sends the control and says what the store answered: the JSON answer (pretty) on success, the store's
    /// `errorMessage` otherwise.
    public func run(timeout: TimeInterval = 30) -> Outcome {
        let base = url.hasSuffix("/") ? String(url.dropLast()) : url
        let body: [UInt8]?
        switch readInput() {
        case .success(let read): body = read ?? self.body
        case .failure(let failed): return Outcome(status: 1, stdout: "", stderr: "mockstore: error: \(failed.words)\n")
        }
        let response: HTTPClient.Response
        do {
            var headers = body == nil ? [] : [HTTPHeader("Content-Type", "application/json")]
            if let customer { headers.append(HTTPHeader(MockCustomerHeader.name, customer)) }
            response = try HTTPClient.send(method, base + path, headers: headers, body: body ?? [], timeout: timeout)
        } catch {
            let failed = ControlFailure.unreachable(
                url: url, why: ControlFailure.reason(for: error, url: url, timeout: timeout))
            return Outcome(status: 1, stdout: "", stderr: "mockstore: error: \(failed.words)\n")
        }
        guard (200..<300).contains(response.status) else {
            let detail: String
            if let error = try? JSONDecoder().decode(StoreErrorBody.self, from: Data(response.body)) {
                detail = "\(error.errorMessage) (HTTP \(response.status), error \(error.errorCode))"
            } else {
                detail = "HTTP \(response.status)"
            }
            return Outcome(status: 1, stdout: "", stderr: "mockstore: error: \(method) \(path): \(detail)\n")
        }
        switch output {
        case .json:
            return Outcome(status: 0, stdout: Self.pretty(response.body), stderr: "")
        case .waitNotification(let wait):
            return wait.run(base: base)
        case .notificationList:
            return Self.notificationList(after: response.body, base: base, customer: customer)
        case .certificatePEM(let file):
            return Self.certificate(response.body, to: file)
        }
    }

    /// Every notification, the first page being `first`, printed as one list (`{"notifications": [...]}`).
    static func notificationList(after first: [UInt8], base: String, customer: String?) -> Outcome {
        switch NotificationList.fetch(after: first, base: base, customer: customer) {
        case .failure(let failed):
            return failed.outcome
        case .success(let records):
            let body = (try? HTTPResponse.encode(TestNotificationsBody(notifications: records))) ?? Array("{}".utf8)
            return Outcome(status: 0, stdout: pretty(body), stderr: "")
        }
    }

    /// The DER certificate `body` as PEM: printed, or written to `file` (replacing it) through `fileSystem`.
    static func certificate(_ body: [UInt8], to file: String?, fileSystem: any FileSystem = SystemFileSystem())
        -> Outcome
    {
        guard let pem = try? Certificate(derRepresentation: body).pemRepresentation else {
            return Outcome(status: 1, stdout: "", stderr: "mockstore: error: the store's answer is not a certificate\n")
        }
        guard let file else { return Outcome(status: 0, stdout: pem, stderr: "") }
        if let why = FileWords.write(Array(pem.utf8), to: file, fileSystem: fileSystem) {
            return Outcome(status: 1, stdout: "", stderr: "mockstore: error: cannot write \(file): \(why)\n")
        }
        return Outcome(status: 0, stdout: "", stderr: "")
    }

    /// The body ``input`` makes (nil without one), or why it cannot be made.
    private func readInput() -> Result<[UInt8]?, ControlFailure> {
        switch input {
        case nil:
            return .success(nil)
        case .offerKey(let keyId, let file):
            return OfferControls.publicKeyPEM(file).map { key in
                (try? HTTPResponse.encode(TestOfferKeyRequest(keyId: keyId, publicKey: key))) ?? Array("{}".utf8)
            }
        }
    }

    /// The JSON answer indented, keys sorted, one value per line (an answer that is not JSON as it came).
    static func pretty(_ body: [UInt8]) -> String {
        guard !body.isEmpty else { return "" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(body)),
            let data = try? encoder.encode(value)
        else { return String(decoding: body, as: UTF8.self) + "\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
