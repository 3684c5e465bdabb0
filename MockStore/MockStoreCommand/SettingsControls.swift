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
    struct AskToBuy: SwitchControl {
        static let name = "ask-to-buy"
        static let summary = "purchases wait for a parent's approval"
        let setting: OnOff
        static func request(_ on: Bool) -> ControlRequest {
            ControlRequest(TestControls.updateSettings, body: TestSettingsUpdate(askToBuyEnabled: on))
        }
    }

    struct Interrupted: SwitchControl {
        static let name = "interrupted"
        static let summary = "purchases are interrupted and wait for the customer"
        let setting: OnOff
        static func request(_ on: Bool) -> ControlRequest {
            ControlRequest(TestControls.updateSettings, body: TestSettingsUpdate(interruptedPurchasesEnabled: on))
        }
    }

    struct StorefrontSetting: ControlCommand {
        static let code = Argument.word(.code)
        static let configuration = CommandSpec(
            "storefront", summary: "e.g. GBR, USA (ISO 3166-1 alpha-3)", positionals: [code.spec])
        let code: String
        init(_ arguments: ParsedArguments) throws(UsageError) { code = try arguments.value(of: Self.code) }
        func validate() throws(UsageError) { try checkStorefront(code) }
        func plan() -> ControlPlan {
            ControlPlan(
                request: ControlRequest(TestControls.updateSettings, body: TestSettingsUpdate(storefront: code)))
        }
    }

    struct Locale: ControlCommand {
        static let identifier = Argument.word(.id)
        static let configuration = CommandSpec("locale", summary: "e.g. en_GB", positionals: [identifier.spec])
        let identifier: String
        init(_ arguments: ParsedArguments) throws(UsageError) { identifier = try arguments.value(of: Self.identifier) }
        /// A well-formed identifier (whether the catalogue has it is the store's to say).
        func validate() throws(UsageError) {
            guard LocaleIdentifier.isWellFormed(identifier) else {
                throw UsageError("\(quoted(identifier)) is not a locale identifier (e.g. en_GB, fr, zh_Hant_TW)")
            }
        }
        func plan() -> ControlPlan {
            ControlPlan(
                request: ControlRequest(TestControls.updateSettings, body: TestSettingsUpdate(locale: identifier)))
        }
    }

    struct Settings: FixedControl {
        static let name = "settings"
        static let summary = "show the settings in force, failures included"
        static let request = ControlRequest(TestControls.settings)
    }

    struct Fail: ControlCommand {
        static let error = Option.string(.error, "NAME", help: "the StoreKit error").required()
        static let once = Option.flag(.once, help: "only the next call fails")
        static let api = Argument.word(
            .api, help: "loadProducts, purchase, verification, appStoreSync, appTransaction, finish or storefront")
        static let configuration = CommandSpec(
            "fail",
            summary: "make an API fail with a StoreKit error, once or until cleared.\n"
                + "API: loadProducts, purchase, verification, appStoreSync, appTransaction, finish, storefront.\n"
                + "NAME as StoreKit names it, e.g. StoreKitError.networkError, "
                + "Product.PurchaseError.purchaseNotAllowed (or purchaseNotAllowed), "
                + "SKError.Code.paymentNotAllowed, VerificationError.invalidSignature",
            options: [error.spec, once.spec], positionals: [api.spec])

        /// The API as given (any case).
        let api: String
        let error: String
        let once: Bool

        init(_ arguments: ParsedArguments) throws(UsageError) {
            api = try arguments.value(of: Self.api)
            error = try arguments.value(of: Self.error)
            once = try arguments.value(of: Self.once)
        }

        func validate() throws(UsageError) {
            let failable = try failableAPI(api)
            guard failable.failure(named: error) != nil else {
                throw .invalidValue(
                    "--error", error,
                    isNot: "an error \(failable.rawValue) can fail with (\(failable.allowedErrorsDescription))")
            }
        }

        func plan() -> ControlPlan {
            let body = TestFailureRequest(
                api: StoreKitAPI(rawValue: api), error: StoreKitErrorName(rawValue: error), once: once)
            return ControlPlan(request: ControlRequest(TestControls.setFailure, body: body))
        }
    }

    struct ClearFailure: ControlCommand {
        static let api = Argument.optional(.api)
        static let configuration = CommandSpec(
            "clear-failure", summary: "clear one API's failure, or every one", positionals: [api.spec])
        /// The API whose failure is cleared; nil: every one.
        let api: String?
        init(_ arguments: ParsedArguments) throws(UsageError) { api = try arguments.value(of: Self.api) }
        func validate() throws(UsageError) { if let api { _ = try failableAPI(api) } }
        func plan() -> ControlPlan {
            guard let api else { return ControlPlan(request: ControlRequest(TestControls.clearFailures)) }
            return ControlPlan(
                request: ControlRequest(TestControls.clearFailure, FailableAPIPath(api: StoreKitAPI(rawValue: api))))
        }
    }

    struct Failures: FixedControl {
        static let name = "failures"
        static let summary = "list the failures in force"
        static let request = ControlRequest(TestControls.failures)
    }

    struct Consumption: FixedControl {
        static let name = "consumption"
        static let summary = "list the consumption information servers sent"
        static let request = ControlRequest(TestControls.consumption)
    }

    /// Every page of the list, joined: the same JSON as before the list was paged.
    struct Notifications: ControlCommand {
        static let configuration = CommandSpec(
            "notifications", summary: "list the notifications made, with every send attempt")
        init(_ arguments: ParsedArguments) {}
        func plan() -> ControlPlan { ControlPlan(request: NotificationList.firstPage, output: .notificationList) }
    }

    /// Waits on the store's notifications, every customer's: `--customer` does not apply.
    struct WaitNotification: ControlCommand {
        static let type = Option.string(
            .type, "TYPE", help: "Apple's notificationType, e.g. REFUND, ONE_TIME_CHARGE"
        ).required()
        static let subtype = Option.string(.subtype, "S", help: "its subtype, e.g. INITIAL_BUY")
        static let count = Option.integer(.count, "N", in: 1...100_000, noun: "a number", help: "how many (default 1)")
        static let timeout = Option.integer(
            .timeout, "SECONDS", in: 1...3_600, noun: "a number of seconds", help: "how long to wait (default 30)")
        static let configuration = CommandSpec(
            "wait-notification",
            summary: "wait until the store has recorded notifications of a type, then print them as JSON (exit 1 at "
                + "the timeout, saying what did arrive)",
            options: [type.spec, subtype.spec, count.spec, timeout.spec])
        static var actsForCustomer: Bool { false }

        let wait: NotificationWait

        init(_ arguments: ParsedArguments) throws(UsageError) {
            wait = NotificationWait(
                type: try arguments.value(of: Self.type), subtype: try arguments.value(of: Self.subtype),
                count: Int(try arguments.value(of: Self.count) ?? 1),
                timeout: TimeInterval(try arguments.value(of: Self.timeout) ?? 30))
        }

        /// The type and subtype checked against Apple's.
        func validate() throws(UsageError) {
            if let problem = NotificationWait.problem(type: wait.type.rawValue, subtype: wait.subtype?.rawValue) {
                throw UsageError(problem)
            }
        }

        func plan() -> ControlPlan { ControlPlan(request: NotificationList.firstPage, output: .waitNotification(wait)) }
    }

    struct RootCertificate: ControlCommand {
        static let out = Option.string(.out, "FILE", help: "write it to FILE instead of printing it")
        static let configuration = CommandSpec(
            "root-certificate",
            summary: "the store's test root certificate, as PEM: the one to trust when checking its signatures",
            options: [out.spec])
        /// Where to write it; nil: printed.
        let out: String?
        init(_ arguments: ParsedArguments) throws(UsageError) { out = try arguments.value(of: Self.out) }
        func plan() -> ControlPlan {
            ControlPlan(request: ControlRequest(SandboxAPI.rootCertificate), output: .certificatePEM(file: out))
        }
    }

    /// The API `name` names (`purchase`, `loadProducts`, …, any case); another word is a usage error.
    private static func failableAPI(_ name: String) throws(UsageError) -> FailableAPI {
        guard let api = FailableAPI(named: name) else {
            throw UsageError(
                "\(quoted(name)) is not an API that can be made to fail (one of \(FailableAPI.namesDescription))")
        }
        return api
    }

    /// `code` if it names a storefront the store knows (GBR, USA, …; any case); another word is a usage error.
    static func checkStorefront(_ code: String) throws(UsageError) {
        guard Storefront.named(code) != nil else {
            throw UsageError(
                "\(quoted(code)) is not an App Store storefront: give its ISO 3166-1 alpha-3 code, such as GBR or "
                    + "USA (\(Storefront.known.count) are known)")
        }
    }
}
