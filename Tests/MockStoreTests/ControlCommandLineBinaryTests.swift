import Foundation
import Testing

/// `mockstore control` mistakes the declarative parser now catches before anything is sent (they were sent to the
/// store, or passed unnoticed): exit 64, naming the option.
@Suite struct ControlCommandLineBinaryTests {
    @Test(arguments: [
        (["fail", "purchase", "--error", "x", "--once", "--once"], "--once is given more than once"),
        (["fail", "purchase", "--error", ""], "--error needs a value, got an empty one"),
        (["buy", "p", "--quantity", "1", "--quantity", "2"], "--quantity is given more than once"),
        (["ask-to-buy", "maybe"], "\"maybe\" is not one of on, off"),
        // Issue 35: an unknown API or storefront is a command-line mistake, as an unknown notification type is.
        (["fail", "nosuchapi", "--error", "networkError"], "\"nosuchapi\" is not an API that can be made to fail"),
        (["storefront", "XYZ"], "\"XYZ\" is not an App Store storefront"),
    ])
    func mistakesAreExit64BeforeAnythingIsSent(_ arguments: [String], _ words: String) async throws {
        // Port 9 (discard): nothing listens, so a control that was sent would fail with exit 1 instead.
        let result = try await MockStoreHarness.controlInProcess(
            ["control", "--url", "http://127.0.0.1:9"] + arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(words), "\(result.stderr)")
        #expect(result.stderr.contains("mockstore control --help"))
    }

    @Test func aCommandNameIsNotTakenForTheURL() async throws {
        let result = try await MockStoreHarness.run(["control", "--url", "transactions"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--url needs a value (URL), not the command \"transactions\""))
    }
}
