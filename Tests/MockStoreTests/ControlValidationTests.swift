import OptionParsing
import Testing

@testable import MockStoreCommand

/// Each `mockstore control` command's `validate()` (and the server's): what the declarations cannot check is a
/// usage error (exit 64) in the same words as before the commands were types, said for the command it was made in.
@Suite struct ControlValidationTests {
    static let url = ["--url", "http://127.0.0.1:1"]

    @Test(arguments: [
        (["fail", "nope", "--error", "x"], "fail", "\"nope\" is not an API that can be made to fail (one of "),
        (["fail", "purchase", "--error", "nope"], "fail", "--error \"nope\" is not an error purchase can fail with ("),
        (["customer", "list", "bob"], "customer", "customer list takes no name"),
        (["customer", "add"], "customer", "customer add needs a NAME"),
        (["clock", "rate", "nope"], "clock", "\"nope\" is not a time rate (one of realTime, "),
        (["clock", "advance", "P0D"], "clock", "\"P0D\" is not a duration the clock can move by: give a positive"),
        (["subscription", "auto-renew", "1", "maybe"], "subscription", "subscription auto-renew needs on or off"),
        (["subscription", "renew", "a/b"], "subscription", "\"a/b\" is not a transaction id or product id"),
        (["refund", "1", "--percentage", "101"], "refund", "--percentage \"101\" is not a percentage above 0 and at"),
        (["approve", "12x"], "approve", "\"12x\" is not a transaction id (digits, e.g. 2000000000000001)"),
        (["recover", "a/b"], "recover", "\"a/b\" is not a transaction id or product id"),
        (
            ["price-increase", "1", "--price", "x"], "price-increase",
            "--price \"x\" is not a price above 0 such as 10.99"
        ),
        (["storefront", "ZZZ"], "storefront", "\"ZZZ\" is not an App Store storefront: give its ISO 3166-1 alpha-3"),
        (["wait-notification", "--type", "NOPE"], "wait-notification", "\"NOPE\" is not a notification type (one of "),
    ])
    func aControlsValidateRefusesInItsWords(_ words: [String], _ command: String, _ said: String) throws {
        let error = #expect(throws: UsageError.self) {
            try MockStoreCommandLine.parse(["control"] + Self.url + words)
        }
        #expect(error?.message.hasPrefix(said) == true, "\(error?.message ?? "no error")")
        #expect(error?.command == ["mockstore control", command], "said for the command it was made in")
        #expect(error.map { ExitStatus(for: $0) } == .usage)
    }

    @Test(arguments: [
        (["request-refund", "1", "--reason", "nope"], "--reason \"nope\" is not one of "),
        (["ask-to-buy", "maybe"], "ask-to-buy on|off: \"maybe\" is not one of on, off, true, false"),
        (["customer", "rename", "bob"], "customer add|list|remove: \"rename\" is not one of add, list, remove"),
    ])
    func aBadChoiceIsRefusedByItsDeclaration(_ words: [String], _ said: String) {
        let error = #expect(throws: UsageError.self) {
            try MockStoreCommandLine.parse(["control"] + Self.url + words)
        }
        #expect(error?.message.hasPrefix(said) == true, "\(error?.message ?? "no error")")
    }

    @Test func theCustomerIsCheckedBeforeTheCommandsOwnWords() {
        let error = #expect(throws: UsageError.self) {
            try MockStoreCommandLine.parse(["control"] + Self.url + ["--customer", "b b", "approve", "12x"])
        }
        #expect(error?.message.hasPrefix("--customer \"b b\" is not a customer's name (") == true)
    }

    @Test(arguments: [
        (["--ephemeral", "--data", "x"], "--data is not used with --ephemeral (nothing is written to disk)"),
        (["--parent-pid", "5"], "--parent-pid is only used with --exit-with-parent"),
        (["--signing", "hs256"], "--signing hs256 needs --secret-file FILE (the shared secret)"),
        (["--secret-file", "s"], "--secret-file is only used with --signing hs256"),
        (["--notify-max-attempts", "2"], "--notify-max-attempts is only used with --notify URL"),
        (["--notify-ca", "x", "--notify", "http://a/b"], "--notify-ca is only used with an https:// --notify URL"),
        (["--clock", "nope"], "--clock \"nope\" is not one of virtual, sandbox"),
    ])
    func theServersOptionsAreCheckedInTheSameWords(_ words: [String], _ said: String) {
        let error = #expect(throws: UsageError.self) { try MockStoreCommandLine.parse(words) }
        #expect(error?.message == said)
    }

    @Test func theServersChoicesAreReadTyped() throws {
        guard
            case .run(let options) = try MockStoreCommandLine.parse([
                "--signing", "none", "--environment", "production", "--clock", "sandbox", "--time-rate",
                "monthlyRenewalEveryHour",
            ])
        else {
            Issue.record("expected options")
            return
        }
        #expect(options.signing == .none)
        #expect(options.environment == .production)
        #expect(options.clockMode == .sandbox(.monthlyRenewalEveryHour))
    }
}
