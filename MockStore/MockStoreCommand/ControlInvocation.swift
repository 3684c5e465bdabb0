import Foundation
import MockStoreHTTP
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

    public init(url: String, method: String, path: String, body: [UInt8]? = nil) {
        self.url = url
        self.method = method
        self.path = path
        self.body = body
    }

    /// The text of `mockstore control --help`.
    public static let usage = """
        Usage: mockstore control [--url URL] COMMAND [ARGUMENTS]

        Sends one test control to a running mockstore (the URL of its listening line; default $MOCKSTORE_URL) and
        prints its JSON answer. What SKTestSession does in Xcode, over HTTP under /test/v1/.

        Commands:
          reset                          back to the catalogue's defaults: no transactions, settings or failures
          clear                          remove every transaction (settings stay)
          transactions                   list every transaction, with its order id, status and refund state
          delete ID                      remove one transaction
          buy PRODUCT [--quantity N] [--app-account-token UUID]
                                         a purchase made outside the app: reaches the app as an update
          ask-to-buy on|off              purchases wait for a parent's approval
          approve ID | decline ID        settle a purchase waiting for Ask to Buy
          interrupted on|off             purchases are interrupted and wait for the customer
          resolve ID                     complete an interrupted purchase
          refund ID [--reason 0|1]       refund now (revocationReason 0: other, 1: an issue in the app): REFUND
          request-refund ID [--reason UNINTENDED_PURCHASE|FULFILLMENT_ISSUE|UNSATISFIED_WITH_PURCHASE|LEGAL|OTHER]
                                         the customer asks for a refund: CONSUMPTION_REQUEST; then
                                         `refund ID` grants it (REFUND) or `decline-refund ID` declines it
          decline-refund ID              decline the refund request: REFUND_DECLINED
          reverse-refund ID              reverse a refund: REFUND_REVERSED
          storefront CODE                e.g. GBR, USA (ISO 3166-1 alpha-3)
          locale ID                      e.g. en_GB
          settings                       show the settings in force, failures included
          fail API --error NAME [--once] make an API fail with a StoreKit error, once or until cleared.
                                         API: loadProducts, purchase, verification, appStoreSync, finish.
                                         NAME as StoreKit names it, e.g. StoreKitError.networkError,
                                         Product.PurchaseError.purchaseNotAllowed (or purchaseNotAllowed),
                                         SKError.Code.paymentNotAllowed, VerificationError.invalidSignature
          clear-failure [API]            clear one API's failure, or every one
          failures                       list the failures in force
          consumption                    list the consumption information servers sent
          notifications                  list the notifications made, with every send attempt

        Exit status: 0 when the store accepted the control, 1 when it refused it or cannot be reached (the reason
        on stderr), 64 on a usage error.
        """

    /// Parses the arguments after `control`.
    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError)
        -> MockStoreCommandLine.Command
    {
        var words: [String] = []
        var options: [String: String] = [:]
        var flags = Set<String>()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "-h" || argument == "--help" { return .controlHelp }
            guard argument.hasPrefix("--") else {
                words.append(argument)
                continue
            }
            var name = argument
            var value: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            if name == "--once" {
                flags.insert(name)
                continue
            }
            guard ["--url", "--error", "--reason", "--quantity", "--app-account-token"].contains(name) else {
                throw UsageError("unknown control option \(name) (see mockstore control --help)")
            }
            if value == nil {
                guard index < arguments.count else { throw UsageError("\(name) needs a value") }
                value = arguments[index]
                index += 1
            }
            guard options[name] == nil else { throw UsageError("\(name) is given more than once") }
            options[name] = value
        }
        guard let url = options.removeValue(forKey: "--url") ?? environment["MOCKSTORE_URL"], !url.isEmpty else {
            throw UsageError("mockstore control needs --url URL (or MOCKSTORE_URL): the store's listening URL")
        }
        do {
            _ = try HTTPClient.Target(url)
        } catch {
            throw UsageError("--url \"\(url)\" is not an http://HOST:PORT URL")
        }
        guard let command = words.first else { throw UsageError("mockstore control needs a command (see --help)") }
        var parser = Words(command: command, words: Array(words.dropFirst()), options: options, flags: flags)
        let request = try parser.request()
        try parser.finish()
        return .control(ControlInvocation(url: url, method: request.0, path: request.1, body: request.2))
    }

    /// The command's words, options and flags, used up as the command reads them.
    private struct Words {
        let command: String
        var words: [String]
        var options: [String: String]
        var flags: Set<String>

        mutating func next(_ what: String) throws(UsageError) -> String {
            guard !words.isEmpty else { throw UsageError("\(command) needs \(what)") }
            return words.removeFirst()
        }

        mutating func transactionId() throws(UsageError) -> String {
            let id = try next("a transaction id")
            guard !id.isEmpty, id.allSatisfy(\.isNumber) else {
                throw UsageError("\"\(id)\" is not a transaction id (digits, e.g. 2000000000000001)")
            }
            return id
        }

        mutating func onOff() throws(UsageError) -> Bool {
            switch try next("on or off") {
            case "on", "true": return true
            case "off", "false": return false
            case let other: throw UsageError("\(command) takes on or off, not \"\(other)\"")
            }
        }

        mutating func option(_ name: String) -> String? { options.removeValue(forKey: name) }

        func finish() throws(UsageError) {
            if let extra = words.first { throw UsageError("unexpected argument \"\(extra)\" for \(command)") }
            if let extra = options.keys.sorted().first { throw UsageError("\(extra) is not an option of \(command)") }
            if let extra = flags.first { throw UsageError("\(extra) is not an option of \(command)") }
        }

        static func json<Body: Encodable>(_ body: Body) -> [UInt8] {
            (try? HTTPResponse.encode(body)) ?? Array("{}".utf8)
        }

        mutating func request() throws(UsageError) -> (String, String, [UInt8]?) {
            let transactions = "/test/v1/transactions/"
            switch command {
            case "reset": return ("POST", "/test/v1/reset", nil)
            case "clear": return ("POST", "/test/v1/clear", nil)
            case "transactions": return ("GET", "/test/v1/transactions", nil)
            case "delete": return ("DELETE", transactions + (try transactionId()), nil)
            case "buy":
                let product = try next("a product id")
                var quantity: Int?
                if let text = option("--quantity") {
                    guard let value = Int(text) else { throw UsageError("--quantity \"\(text)\" is not a number") }
                    quantity = value
                }
                let body = PurchaseRequestBody(
                    productId: product, quantity: quantity, appAccountToken: option("--app-account-token"))
                return ("POST", "/test/v1/purchases", Self.json(body))
            case "approve", "decline", "resolve":
                return ("POST", transactions + (try transactionId()) + "/" + command, nil)
            case "refund":
                let id = try transactionId()
                var reason: Int?
                if let text = option("--reason") {
                    guard let value = Int(text) else { throw UsageError("--reason \"\(text)\" is not 0 or 1") }
                    reason = value
                }
                return ("POST", transactions + id + "/refund", Self.json(TestRefundBody(revocationReason: reason)))
            case "reverse-refund": return ("POST", transactions + (try transactionId()) + "/refund/reverse", nil)
            case "request-refund":
                let id = try transactionId()
                let body = TestRefundRequestBody(consumptionRequestReason: option("--reason"))
                return ("POST", transactions + id + "/refund-request", Self.json(body))
            case "decline-refund":
                return ("POST", transactions + (try transactionId()) + "/refund-request/decline", nil)
            case "ask-to-buy":
                return ("POST", "/test/v1/settings", Self.json(TestSettingsUpdate(askToBuyEnabled: try onOff())))
            case "interrupted":
                return (
                    "POST", "/test/v1/settings", Self.json(TestSettingsUpdate(interruptedPurchasesEnabled: try onOff()))
                )
            case "storefront":
                return (
                    "POST", "/test/v1/settings", Self.json(TestSettingsUpdate(storefront: try next("a storefront")))
                )
            case "locale":
                return ("POST", "/test/v1/settings", Self.json(TestSettingsUpdate(locale: try next("a locale"))))
            case "settings": return ("GET", "/test/v1/settings", nil)
            case "fail":
                let api = try next("an API (loadProducts, purchase, verification, appStoreSync, finish)")
                guard let error = option("--error") else { throw UsageError("fail needs --error NAME") }
                let once = flags.remove("--once") != nil
                return ("POST", "/test/v1/failures", Self.json(TestFailureRequest(api: api, error: error, once: once)))
            case "clear-failure":
                if words.isEmpty { return ("DELETE", "/test/v1/failures", nil) }
                return ("DELETE", "/test/v1/failures/" + (try next("an API")), nil)
            case "failures": return ("GET", "/test/v1/failures", nil)
            case "consumption": return ("GET", "/test/v1/consumption", nil)
            case "notifications": return ("GET", "/test/v1/notifications", nil)
            default:
                throw UsageError("unknown control command \"\(command)\" (see mockstore control --help)")
            }
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
            response = try HTTPClient.send(
                method, base + path,
                headers: body == nil ? [] : [HTTPHeader("Content-Type", "application/json")], body: body ?? [],
                timeout: timeout)
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
        return Outcome(status: 0, stdout: Self.pretty(response.body), stderr: "")
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
