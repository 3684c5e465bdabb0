import Foundation
import MockStoreServer
import OptionParsing
import StoreKitCatalogue
import StoreTestControls
import StoreWire

/// The settings, failures and lists of `mockstore control`: SKTestSession's switches, storefront and locale, its
/// simulated errors, and what the store recorded (consumption information, notifications, its root certificate).
/// The `mockstore control` commands of one area (see ``ControlCommands``).
enum SettingsControls {
    static let askToBuy = ControlCommand(
        CommandSpec(
            "ask-to-buy", summary: "purchases wait for a parent's approval", positionals: [OnOff.positional])
    ) { args throws(UsageError) in
        ControlRequest(TestControls.updateSettings, body: TestSettingsUpdate(askToBuyEnabled: args.isOn))
    }

    static let interrupted = ControlCommand(
        CommandSpec(
            "interrupted", summary: "purchases are interrupted and wait for the customer",
            positionals: [OnOff.positional])
    ) { args throws(UsageError) in
        ControlRequest(TestControls.updateSettings, body: TestSettingsUpdate(interruptedPurchasesEnabled: args.isOn))
    }

    static let storefront = ControlCommand(
        CommandSpec("storefront", summary: "e.g. GBR, USA (ISO 3166-1 alpha-3)", positionals: [PositionalSpec(.code)])
    ) { args throws(UsageError) in
        let code = try knownStorefront(args.positional(.code) ?? "", args)
        return ControlRequest(TestControls.updateSettings, body: TestSettingsUpdate(storefront: code))
    }

    static let locale = ControlCommand(
        CommandSpec("locale", summary: "e.g. en_GB", positionals: [PositionalSpec(.id)]),
        request: localeRequest)

    static let settings = ControlCommand(
        CommandSpec("settings", summary: "show the settings in force, failures included"),
        sends: ControlRequest(TestControls.settings))

    static let fail = ControlCommand(
        CommandSpec(
            "fail",
            summary: "make an API fail with a StoreKit error, once or until cleared.\n"
                + "API: loadProducts, purchase, verification, appStoreSync, finish.\n"
                + "NAME as StoreKit names it, e.g. StoreKitError.networkError, "
                + "Product.PurchaseError.purchaseNotAllowed (or purchaseNotAllowed), "
                + "SKError.Code.paymentNotAllowed, VerificationError.invalidSignature",
            options: [
                .string(.error, "NAME", help: "the StoreKit error").required(),
                .flag(.once, help: "only the next call fails"),
            ],
            positionals: [PositionalSpec(.api, help: "loadProducts, purchase, verification, appStoreSync or finish")])
    ) { args throws(UsageError) in
        let api = try failableAPI(args.positional(.api) ?? "", args)
        let error = args.string(.error) ?? ""
        guard api.failure(named: error) != nil else {
            throw .invalidValue(
                "--error", error, isNot: "an error \(api.rawValue) can fail with (\(api.allowedErrorsDescription))",
                command: args.path)
        }
        let body = TestFailureRequest(
            api: StoreKitAPI(rawValue: args.positional(.api) ?? ""), error: StoreKitErrorName(rawValue: error),
            once: args.flag(.once))
        return ControlRequest(TestControls.setFailure, body: body)
    }

    static let clearFailure = ControlCommand(
        CommandSpec(
            "clear-failure", summary: "clear one API's failure, or every one",
            positionals: [PositionalSpec(.api, optional: true)])
    ) { args throws(UsageError) in
        guard let api = args.positional(.api) else { return ControlRequest(TestControls.clearFailures) }
        _ = try failableAPI(api, args)
        return ControlRequest(TestControls.clearFailure, api)
    }

    static let failures = ControlCommand(
        CommandSpec("failures", summary: "list the failures in force"), sends: ControlRequest(TestControls.failures))

    static let consumption = ControlCommand(
        CommandSpec("consumption", summary: "list the consumption information servers sent"),
        sends: ControlRequest(TestControls.consumption))

    /// Every page of the list, joined: the same JSON as before the list was paged.
    static let notifications = ControlCommand(
        CommandSpec("notifications", summary: "list the notifications made, with every send attempt"),
        actsForCustomer: true
    ) { _ throws(UsageError) in
        ControlPlan(request: NotificationList.firstPage, output: .notificationList)
    }

    /// Waits on the store's notifications, every customer's: `--customer` does not apply.
    static let waitNotification = ControlCommand(
        CommandSpec(
            "wait-notification",
            summary: "wait until the store has recorded notifications of a type, then print them as JSON (exit 1 at "
                + "the timeout, saying what did arrive)",
            options: [
                .string(.type, "TYPE", help: "Apple's notificationType, e.g. REFUND, ONE_TIME_CHARGE").required(),
                .string(.subtype, "S", help: "its subtype, e.g. INITIAL_BUY"),
                .integer(.count, "N", in: 1...100_000, noun: "a number", help: "how many (default 1)"),
                .integer(
                    .timeout, "SECONDS", in: 1...3_600, noun: "a number of seconds",
                    help: "how long to wait (default 30)"),
            ]),
        actsForCustomer: false
    ) { args throws(UsageError) in
        ControlPlan(request: NotificationList.firstPage, output: .waitNotification(try wait(args)))
    }

    static let rootCertificate = ControlCommand(
        CommandSpec(
            "root-certificate",
            summary: "the store's test root certificate, as PEM: the one to trust when checking its signatures",
            options: [.string(.out, "FILE", help: "write it to FILE instead of printing it")]),
        actsForCustomer: true
    ) { args throws(UsageError) in
        ControlPlan(
            request: ControlRequest(SandboxAPI.rootCertificate), output: .certificatePEM(file: args.string(.out)))
    }

    /// The API `name` names (`purchase`, `loadProducts`, …, any case); another word is a usage error.
    private static func failableAPI(_ name: String, _ args: ParsedArguments) throws(UsageError) -> FailableAPI {
        guard let api = FailableAPI(named: name) else {
            throw UsageError(
                "\(quoted(name)) is not an API that can be made to fail (one of \(FailableAPI.namesDescription))",
                command: args.path)
        }
        return api
    }

    /// `code` if it names a storefront the store knows (GBR, USA, …; any case); another word is a usage error.
    static func knownStorefront(_ code: String, _ args: ParsedArguments) throws(UsageError) -> String {
        guard Storefront.named(code) != nil else {
            throw UsageError(
                "\(quoted(code)) is not an App Store storefront: give its ISO 3166-1 alpha-3 code, such as GBR or "
                    + "USA (\(Storefront.known.count) are known)", command: args.path)
        }
        return code
    }

    /// `locale ID`: a well-formed identifier (whether the catalogue has it is the store's to say).
    private static func localeRequest(_ args: ParsedArguments) throws(UsageError) -> ControlRequest {
        let locale = args.positional(.id) ?? ""
        guard LocaleIdentifier.isWellFormed(locale) else {
            throw UsageError(
                "\(quoted(locale)) is not a locale identifier (e.g. en_GB, fr, zh_Hant_TW)", command: args.path)
        }
        return ControlRequest(TestControls.updateSettings, body: TestSettingsUpdate(locale: locale))
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
}
