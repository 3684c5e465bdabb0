import Foundation
import MockStoreHTTP
import OptionParsing
import Signing
import StoreKitCatalogue
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

    /// What a control does with the store's answer.
    public enum Output: Equatable, Sendable {
        /// Prints its JSON, indented.
        case json
        /// `root-certificate`: the answer is a DER certificate, printed as PEM, or written as PEM to the file.
        case certificatePEM(file: String?)
        /// `wait-notification`: the notifications list asked for again until enough have been recorded.
        case waitNotification(NotificationWait)
    }

    public init(
        url: String, method: String, path: String, body: [UInt8]? = nil, output: Output = .json,
        customer: String? = nil
    ) {
        self.url = url
        self.method = method
        self.path = path
        self.body = body
        self.output = output
        self.customer = customer
    }

    /// `mockstore control`, declared: every control command with its words and options.
    public static let spec: CommandSpec = {
        let id = PositionalSpec(.id, help: "a transaction id")
        let onOff = PositionalSpec(.onOrOff, choices: ["on", "off", "true", "false"])
        func command(_ name: String, _ summary: String, _ words: [PositionalSpec] = [], _ options: [OptionSpec] = [])
            -> CommandSpec
        {
            CommandSpec(name, summary: summary, options: options, positionals: words)
        }
        return CommandSpec(
            "mockstore control",
            discussion: """
                Sends one test control to a running mockstore (the URL of its listening line; default $MOCKSTORE_URL) and
                prints its JSON answer. What SKTestSession does in Xcode, over HTTP under /test/v1/.
                """,
            options: [
                .string(.url, "URL", help: "the store's listening URL (default $MOCKSTORE_URL)").inherited(),
                .string(
                    .customer, "NAME",
                    help: "the customer the control acts for (default: the default customer; a control given a "
                        + "transaction id acts for its customer, and with --customer only on that customer's)"
                ).inherited(),
            ],
            subcommands: [
                command("reset", "back to the catalogue's defaults: no transactions, settings or failures"),
                customerCommand,
                command("clear", "remove every transaction (settings stay)"),
                command("transactions", "list every transaction, with its order id, status and refund state"),
                command("delete", "remove one transaction", [id]),
                command(
                    "buy", "a purchase made outside the app: reaches the app as an update",
                    [PositionalSpec(.product, help: "a product id")],
                    [
                        .integer(.quantity, "N", noun: "a number", help: "how many"),
                        .string(.appAccountToken, "UUID", help: "the app's account token"),
                        offerOption,
                    ]),
                command("ask-to-buy", "purchases wait for a parent's approval", [onOff]),
                command("approve", "settle a purchase waiting for Ask to Buy: approved", [id]),
                command("decline", "settle a purchase waiting for Ask to Buy: declined", [id]),
                command("interrupted", "purchases are interrupted and wait for the customer", [onOff]),
                command("resolve", "complete an interrupted purchase, or end a subscription's billing issue", [id]),
                command(
                    "refund",
                    "refund now (revocationReason 0: other, 1: an issue in the app): REFUND, REFUND_FULL; with "
                        + "--percentage P a partial refund of P% (REFUND_PRORATED, revocationPercentage P × 1000)",
                    [id],
                    [
                        .integer(.reason, "0|1", noun: "a number", help: "the revocationReason"),
                        .string(
                            .percentage, "P",
                            help: "the share refunded, as a percentage above 0 and at most 100 with up to three "
                                + "decimals (50, 33.333): a prorated refund"),
                    ]),
                command(
                    "request-refund",
                    "the customer asks for a refund: CONSUMPTION_REQUEST; then `refund ID` grants it (REFUND) or "
                        + "`decline-refund ID` declines it", [id],
                    [
                        .string(
                            .reason,
                            "UNINTENDED_PURCHASE|FULFILLMENT_ISSUE|UNSATISFIED_WITH_PURCHASE|LEGAL|OTHER",
                            help: "the consumptionRequestReason")
                    ]),
                command("decline-refund", "decline the refund request: REFUND_DECLINED", [id]),
                command("reverse-refund", "reverse a refund: REFUND_REVERSED", [id]),
                command("storefront", "e.g. GBR, USA (ISO 3166-1 alpha-3)", [PositionalSpec(.code)]),
                command("locale", "e.g. en_GB", [PositionalSpec(.id)]),
                command("settings", "show the settings in force, failures included"),
                command(
                    "fail",
                    "make an API fail with a StoreKit error, once or until cleared.\n"
                        + "API: loadProducts, purchase, verification, appStoreSync, finish.\n"
                        + "NAME as StoreKit names it, e.g. StoreKitError.networkError, "
                        + "Product.PurchaseError.purchaseNotAllowed (or purchaseNotAllowed), "
                        + "SKError.Code.paymentNotAllowed, VerificationError.invalidSignature",
                    [PositionalSpec(.api, help: "loadProducts, purchase, verification, appStoreSync or finish")],
                    [
                        .string(.error, "NAME", help: "the StoreKit error").required(),
                        .flag(.once, help: "only the next call fails"),
                    ]),
                command(
                    "clear-failure", "clear one API's failure, or every one", [PositionalSpec(.api, optional: true)]),
                command("failures", "list the failures in force"),
                command("consumption", "list the consumption information servers sent"),
                command("notifications", "list the notifications made, with every send attempt"),
                command(
                    "wait-notification",
                    "wait until the store has recorded notifications of a type, then print them as JSON (exit 1 at "
                        + "the timeout, saying what did arrive)", [],
                    [
                        .string(.type, "TYPE", help: "Apple's notificationType, e.g. REFUND, ONE_TIME_CHARGE")
                            .required(),
                        .string(.subtype, "S", help: "its subtype, e.g. INITIAL_BUY"),
                        .integer(.count, "N", in: 1...100_000, noun: "a number", help: "how many (default 1)"),
                        .integer(
                            .timeout, "SECONDS", in: 1...3_600, noun: "a number of seconds",
                            help: "how long to wait (default 30)"),
                    ]),
                command(
                    "root-certificate",
                    "the store's test root certificate, as PEM: the one to trust when checking its signatures", [],
                    [.string(.out, "FILE", help: "write it to FILE instead of printing it")]),
            ] + subscriptionCommands + billingCommands + offerCommands,
            subcommandNoun: "control command", commandListShowsOptions: true,
            epilogue: """
                Exit status: 0 when the store accepted the control, 1 when it refused it or cannot be reached (the reason
                on stderr), 64 on a usage error.
                """)
    }()

    /// The text of `mockstore control --help`.
    public static let usage = spec.helpText

    /// Parses the arguments after `control`.
    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError)
        -> MockStoreCommandLine.Command
    {
        try refuseNegativeDuration(arguments)
        guard case .run(let args) = try spec.parse(arguments) else { return .controlHelp }
        guard let url = args.string(.url) ?? environment["MOCKSTORE_URL"], !url.isEmpty else {
            throw UsageError(
                "mockstore control needs --url URL (or MOCKSTORE_URL): the store's listening URL", command: args.path)
        }
        do {
            _ = try HTTPClient.Target(url)
        } catch {
            throw .invalidValue("--url", url, isNot: "an http://HOST:PORT URL", command: args.path)
        }
        if args.command == "wait-notification" {
            return .control(
                ControlInvocation(
                    url: url, method: "GET", path: "/test/v1/notifications",
                    output: .waitNotification(try Self.wait(args))))
        }
        let customer = try Self.customerName(args.string(.customer), option: "--customer", args)
        let request = try Self.request(args)
        let output: Output = args.command == "root-certificate" ? .certificatePEM(file: args.string(.out)) : .json
        return .control(
            ControlInvocation(
                url: url, method: request.0, path: request.1, body: request.2, output: output, customer: customer))
    }

    /// `customer add NAME [--storefront S]`, `customer list`, `customer remove NAME`.
    private static let customerCommand = CommandSpec(
        "customer",
        summary: "the store's customers (Apple's sandbox testers), each with their own purchases, subscriptions, "
            + "eligibility and storefront: `customer add NAME [--storefront S]`, `customer list`, `customer remove "
            + "NAME` (with everything that is theirs; never the default customer). The device API acts for the one "
            + "its X-Mock-Customer: NAME header names",
        options: [.string(.storefront, "S", help: "the new customer's storefront (default: the catalogue's)")],
        positionals: [
            PositionalSpec(.addOrListOrRemove, choices: ["add", "list", "remove"]),
            PositionalSpec(.name, help: "the customer's name", optional: true),
        ])

    /// The request of `customer …`.
    private static func customerRequest(_ args: ParsedArguments) throws(UsageError) -> (String, String, [UInt8]?) {
        let action = args.positional(.addOrListOrRemove) ?? ""
        if action == "list" {
            guard args.positional(.name) == nil else {
                throw UsageError("customer list takes no name", command: args.path)
            }
            return ("GET", "/test/v1/customers", nil)
        }
        guard let name = try customerName(args.positional(.name), option: nil, args) else {
            throw UsageError("customer \(action) needs a NAME", command: args.path)
        }
        if action == "remove" { return ("DELETE", "/test/v1/customers/" + name, nil) }
        let storefront = args.string(.storefront)
        return ("POST", "/test/v1/customers", json(TestCustomerRequest(name: name, storefront: storefront)))
    }

    /// A customer's name as given (`--customer NAME`, `customer add NAME`), checked: one that cannot be a name is a
    /// usage error.
    private static func customerName(_ name: String?, option: String?, _ args: ParsedArguments) throws(UsageError)
        -> String?
    {
        guard let name, !MockCustomerHeader.isValidName(name) else { return name }
        let rule = "a customer's name (" + MockCustomerHeader.nameRule + ")"
        if let option { throw .invalidValue(option, name, isNot: rule, command: args.path) }
        throw UsageError("\(quoted(name)) is not \(rule)", command: args.path)
    }

    /// `wait-notification`'s options, the type and subtype checked against Apple's.
    private static func wait(_ args: ParsedArguments) throws(UsageError) -> NotificationWait {
        let type = args.string(.type) ?? ""
        let subtype = args.string(.subtype)
        if let problem = NotificationWait.problem(type: type, subtype: subtype) {
            throw UsageError(problem, command: args.path)
        }
        return NotificationWait(
            type: type, subtype: subtype, count: Int(args.integer(.count) ?? 1),
            timeout: TimeInterval(args.integer(.timeout) ?? 30))
    }

    private static func json<Body: Encodable>(_ body: Body) -> [UInt8] {
        (try? HTTPResponse.encode(body)) ?? Array("{}".utf8)
    }

    private static func transactionId(_ args: ParsedArguments) throws(UsageError) -> String {
        let id = args.positional(.id) ?? ""
        guard !id.isEmpty, id.allSatisfy(\.isNumber) else {
            throw UsageError(
                "\(quoted(id)) is not a transaction id (digits, e.g. 2000000000000001)", command: args.path)
        }
        return id
    }

    /// `50` → 50000, `33.333` → 33333: a percentage above 0 and at most 100, with at most three decimals, in
    /// Apple's milliunits; nil for anything else.
    static func milliPercent(_ text: String) -> Int? {
        guard let milli = thousandths(text, wholeDigits: 3), (1...100_000).contains(milli) else { return nil }
        return Int(milli)
    }

    private static func onOff(_ args: ParsedArguments) -> Bool {
        ["on", "true"].contains(args.positional(.onOrOff))
    }

    /// The method, path and body of the control the parser read.
    private static func request(_ args: ParsedArguments) throws(UsageError) -> (String, String, [UInt8]?) {
        let transactions = "/test/v1/transactions/"
        let command = args.command
        switch command {
        case "reset": return ("POST", "/test/v1/reset", nil)
        case "customer": return try customerRequest(args)
        case "clear": return ("POST", "/test/v1/clear", nil)
        case "transactions": return ("GET", "/test/v1/transactions", nil)
        case "delete": return ("DELETE", transactions + (try transactionId(args)), nil)
        case "buy":
            let body = PurchaseRequestBody(
                productId: args.positional(.product) ?? "", quantity: args.integer(.quantity).map { Int($0) },
                appAccountToken: args.string(.appAccountToken), offer: try offer(args))
            return ("POST", "/test/v1/purchases", json(body))
        case "approve", "decline", "resolve":
            return ("POST", transactions + (try transactionId(args)) + "/" + command, nil)
        case "refund":
            let body = TestRefundBody(
                revocationReason: args.integer(.reason).map { RevocationReason(rawValue: Int($0)) },
                revocationPercentage: try args.string(.percentage).map { text throws(UsageError) in
                    guard let milli = Self.milliPercent(text) else {
                        throw .invalidValue(
                            "--percentage", text, isNot: "a percentage above 0 and at most 100 (up to 3 decimals)",
                            command: args.path)
                    }
                    return milli
                })
            return ("POST", transactions + (try transactionId(args)) + "/refund", json(body))
        case "reverse-refund": return ("POST", transactions + (try transactionId(args)) + "/refund/reverse", nil)
        case "request-refund":
            let body = TestRefundRequestBody(
                consumptionRequestReason: args.string(.reason).map(ConsumptionRequestReason.init(rawValue:)))
            return ("POST", transactions + (try transactionId(args)) + "/refund-request", json(body))
        case "decline-refund":
            return ("POST", transactions + (try transactionId(args)) + "/refund-request/decline", nil)
        case "ask-to-buy":
            return ("POST", "/test/v1/settings", json(TestSettingsUpdate(askToBuyEnabled: onOff(args))))
        case "interrupted":
            return ("POST", "/test/v1/settings", json(TestSettingsUpdate(interruptedPurchasesEnabled: onOff(args))))
        case "storefront":
            return ("POST", "/test/v1/settings", json(TestSettingsUpdate(storefront: args.positional(.code))))
        case "locale":
            let locale = args.positional(.id) ?? ""
            guard LocaleIdentifier.isWellFormed(locale) else {
                throw UsageError(
                    "\(quoted(locale)) is not a locale identifier (e.g. en_GB, fr, zh_Hant_TW)", command: args.path)
            }
            return ("POST", "/test/v1/settings", json(TestSettingsUpdate(locale: locale)))
        case "settings": return ("GET", "/test/v1/settings", nil)
        case "fail":
            let body = TestFailureRequest(
                api: args.positional(.api) ?? "", error: args.string(.error) ?? "", once: args.flag(.once))
            return ("POST", "/test/v1/failures", json(body))
        case "clear-failure":
            guard let api = args.positional(.api) else { return ("DELETE", "/test/v1/failures", nil) }
            return ("DELETE", "/test/v1/failures/" + api, nil)
        case "failures": return ("GET", "/test/v1/failures", nil)
        case "consumption": return ("GET", "/test/v1/consumption", nil)
        case "notifications": return ("GET", "/test/v1/notifications", nil)
        case "root-certificate": return ("GET", "/test/v1/root-certificate", nil)
        default:
            if let request = try subscriptionRequest(args) { return request }
            if let billing = try billingRequest(args) { return billing }
            if let offer = try offerRequest(args) { return offer }
            throw UsageError(
                kind: .unknownCommand(command), message: "unknown control command \(quoted(command))",
                command: args.path)
        }
    }

    /// What running the control printed and how it ended.
    public struct Outcome: Equatable, Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Sends the control and says what the store answered: the JSON answer (pretty) on success, the store's
    /// `errorMessage` otherwise.
    public func run(timeout: TimeInterval = 30) -> Outcome {
        let base = url.hasSuffix("/") ? String(url.dropLast()) : url
        let response: HTTPClient.Response
        do {
            var headers = body == nil ? [] : [HTTPHeader("Content-Type", "application/json")]
            if let customer { headers.append(HTTPHeader(MockCustomerHeader.name, customer)) }
            response = try HTTPClient.send(method, base + path, headers: headers, body: body ?? [], timeout: timeout)
        } catch {
            return Outcome(
                status: 1, stdout: "", stderr: "mockstore: error: cannot reach the store at \(url): \(error)\n")
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
        case .certificatePEM(let file):
            return Self.certificate(response.body, to: file)
        }
    }

    /// The DER certificate `body` as PEM: printed, or written to `file` (replacing it).
    static func certificate(_ body: [UInt8], to file: String?) -> Outcome {
        guard let pem = try? Certificate(derRepresentation: body).pemRepresentation else {
            return Outcome(status: 1, stdout: "", stderr: "mockstore: error: the store's answer is not a certificate\n")
        }
        guard let file else { return Outcome(status: 0, stdout: pem, stderr: "") }
        do {
            try Data(pem.utf8).write(to: URL(fileURLWithPath: file))
        } catch {
            return Outcome(
                status: 1, stdout: "",
                stderr: "mockstore: error: cannot write \(file): \((error as NSError).localizedDescription)\n")
        }
        return Outcome(status: 0, stdout: "", stderr: "")
    }

    /// The JSON answer indented, keys sorted, one value per line.
    static func pretty(_ body: [UInt8]) -> String {
        guard !body.isEmpty else { return "" }
        guard let object = try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]),
            let data = try? JSONSerialization.data(
                withJSONObject: object,
                options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else { return String(decoding: body, as: UTF8.self) + "\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
