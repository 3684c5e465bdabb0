import Foundation
import Testing

/// Each command's `validate()`: what its declarations cannot check (a choice that is not one, two options that
/// exclude each other, a value of the wrong shape) is exit 64, in the same words as before the commands were types,
/// the hint naming the command, and nothing is written.
@Suite struct CommandValidationTests {
    @Test(arguments: [
        (
            ["decline", "e1", "--reason", "bored"],
            #"--reason "bored" is not one of not-usable, not-needed, test, other"#
        ),
        (["decline", "e1", "--reason", "test", "--text", "mine"], "--text goes with --reason other"),
        (["decline", "e1", "--reason", "other"], "the reason `other` needs the user's words (--text)"),
        (["takings", "--days", "9"], #"--days "9" is not one of 7, 30"#),
        (["sync", "/nowhere", "--interval", "5"], "--interval is for --watch"),
        (
            ["sync", "/nowhere", "--watch", "--recover-restored"],
            "--recover-restored is one sync: run it without --watch"
        ),
        (
            ["topup", "--product", "nope"],
            #"--product "nope" is not one of the app's packs (ai.voicedebrief.app.credit.500)"#
        ),
        (
            ["store", "use", "mockstore", "--url", "ftp://x", "--secret-file", "s"],
            #"--url "ftp://x" is not an http:// or https:// URL of the mock store"#
        ),
        (
            ["store", "use", "mockstore", "--url", "http://127.0.0.1:1"],
            "give exactly one of --root-certificate FILE or --secret-file FILE"
        ),
        (
            ["store", "use", "mockstore", "--url", "http://127.0.0.1:1", "--environment", "xcode"],
            #"--environment "xcode" is not one of sandbox, production"#
        ),
        (["reconcile", "--api-key", "nokey", "--issuer", "i"], #"--api-key "nokey" is not KEYID=FILE"#),
        (
            ["reconcile", "--api-key", "k=f", "--issuer", "i", "--transaction", "12a"],
            #"--transaction "12a" is not a store transaction id (digits)"#
        ),
    ])
    func aMistakeValidateFindsIsExit64InItsWords(_ arguments: [String], _ words: String) async throws {
        let data = try DataDirectory()
        let result = try await Credit.run(arguments, dataDirectory: data.path)
        let command = arguments.prefix { !$0.hasPrefix("-") && !$0.hasPrefix("/") && $0 != "e1" }
        #expect(result.status == 64, "\(result)")
        #expect(
            result.stderr
                == "credit: \(words)\nRun `credit \(command.joined(separator: " ")) --help` for how to use it.\n",
            "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: data.path), "nothing is written")
    }

    @Test func withJSONTheMistakeIsAUsageErrorForScripts() async throws {
        let data = try DataDirectory()
        let result = try await Credit.run(["sync", "/nowhere", "--interval", "5", "--json"], dataDirectory: data.path)
        #expect(result.status == 64)
        let error = try #require(try result.jsonObject()["error"] as? [String: Any])
        #expect(error["kind"] as? String == "usage")
        #expect(error["message"] as? String == "--interval is for --watch")
    }
}
