import Foundation
import TestSupport
import Testing

/// Issue 14's command line through the real binary: subjects drawn escaped and cut, every mistake exit 64 before
/// anything is opened, `$HOME` honoured, `--json` failures on standard output, `--version`, and a fuzz run.
@Suite struct HostileCommandLineTests {
    static let escape = "\u{1B}[2J\u{202E}x\nnext"

    @Test func aSubjectIsDrawnEscapedAndKeptExactInJSON() async throws {
        let data = try DataDirectory()
        let charged = try await data.ok("charge", "debrief", "--subject", Self.escape)
        #expect(!charged.stdout.contains("\u{1B}") && charged.stdout.contains(#"[U+001B][2J[U+202E]x\nnext"#))
        for command in [["entries"], ["screen"]] {
            let result = try await Credit.run(command, dataDirectory: data.path, now: "2026-11-29T12:00:00.000Z")
            #expect(result.status == 0, "\(result)")
            #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\u{202E}"), "\(command)")
            #expect(result.stdout.contains("[U+001B][2J"), "\(command): \(result)")
        }
        let json = try await data.ok("entries", "--json").jsonArray()
        #expect(json.contains { $0["subject"] as? String == Self.escape }, "exact in --json")
    }

    @Test func aLongSubjectIsCutAndATooLongOneRefused() async throws {
        let data = try DataDirectory()
        try await data.ok("charge", "debrief", "--subject", String(repeating: "s", count: 250))
        let table = try await data.ok("entries").stdout
        #expect(table.contains("…"))
        for line in table.split(separator: "\n") { #expect(line.count < 160, "one long value widens nothing") }
        let huge = try await data.credit("charge", "debrief", "--subject", String(repeating: "s", count: 10_000))
        #expect(huge.status == 64 && huge.stderr.contains("--subject"), "\(huge)")
    }

    @Test(arguments: [
        ["charge", "nosuch"], ["charge", "saveToVault", "--quantity", "5"],
        ["charge", "transcript", "--quantity", "99"],
        ["charge", "debrief", "--seconds", "60"], ["charge", "transcript", "--seconds", "9223372036854775749"],
        ["charge", "transcript", "--seconds", "100000000000000"], ["charge", "transcript"],
    ])
    func aMistakeInTheActIsExit64AndOpensNothing(_ arguments: [String]) async throws {
        let data = try DataDirectory()
        let result = try await Credit.run(arguments, dataDirectory: data.path)
        #expect(result.status == 64, "\(arguments): \(result)")
        #expect(result.stderr.hasPrefix("credit: ") && !result.stderr.contains("Fatal"))
        #expect(!FileManager.default.fileExists(atPath: data.path), "nothing is made")
        let json = try await Credit.run(arguments + ["--json"], dataDirectory: data.path)
        #expect(json.status == 64)
        let error = try #require(try json.jsonObject()["error"] as? [String: Any], "\(json)")
        #expect(error["kind"] as? String == "usage" && (error["message"] as? String)?.isEmpty == false)
    }

    @Test func aRunLineWithAMistakeIsExit64AndNothingIsCharged() async throws {
        let data = try DataDirectory()
        try await data.ok("charge", "send")
        let before = try data.bytes(try data.ledgerFile)
        let result = try await data.credit("run", "-", input: "debrief\ntranscript --quantity 99\n")
        #expect(result.status == 64 && result.stderr.contains("line 2"), "\(result)")
        #expect(try data.bytes(try data.ledgerFile) == before)
    }

    @Test func aNeverChargedActStaysExit1WithJSON() async throws {
        let data = try DataDirectory()
        let result = try await data.credit("charge", "record", "--json")
        #expect(result.status == 1, "\(result)")
        let error = try #require(try result.jsonObject()["error"] as? [String: Any])
        #expect(error["kind"] as? String == "failure")
        #expect((error["message"] as? String)?.contains("never charged") == true)
    }

    @Test func homeIsHonoured() async throws {
        let home = try TemporaryDirectory(prefix: "credit-home")
        let result = try await Credit.run(["charge", "send"], dataDirectory: nil, environment: ["HOME": home.path])
        #expect(result.status == 0, "\(result)")
        #expect(FileManager.default.fileExists(atPath: home.path + "/.local/share/voicedebrief/device"))
    }

    @Test func versionIsExit0() async throws {
        let result = try await Credit.run(["--version"], dataDirectory: nil)
        #expect(result.status == 0 && result.stdout == CreditVersion.expected + "\n", "\(result)")
    }

    @Test func helpStatesTheRanges() async throws {
        let help = try await Credit.run(["charge", "--help"], dataDirectory: nil).stdout
        #expect(help.contains("1 to 360,000") && help.contains("saveToVault 1 to 4"), "\(help)")
    }
}

enum CreditVersion { static let expected = "credit 0.9.0" }

/// Random command lines over every command and option: huge numbers, unicode, control bytes. No crash, no hang;
/// exit 0, 1 or 64 only; every `--json` failure prints JSON on standard output.
@Suite struct CommandLineFuzzTests {
    static let commands: [[String]] = [
        [], ["screen"], ["balance"], ["charge"], ["decline"], ["topup"], ["collect"], ["takings"], ["entries"],
        ["prices"], ["run"], ["verify"], ["store"], ["store", "use", "simulated"], ["store", "use", "mockstore"],
        ["help"], ["nosuch"],
    ]
    static let options = [
        "--seconds", "--quantity", "--subject", "--auto-open", "--reason", "--text", "--product", "--days", "--url",
        "--secret-file", "--root-certificate", "--bundle-id", "--json", "--help", "--version", "--nosuch", "-x", "--",
    ]
    static let values = [
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "100000000000000", "0", "-1", "1",
        "360000", "360001", "4", "5", "1e9", "0x10", "", "\u{1B}[2J", "\u{202E}rtl", "é́", "👩‍👩‍👧", "\u{7F}\u{85}",
        "a\nb", "transcript", "saveToVault", "pushVault", "record", "other", "7", "30", "balance", "http://[::1",
        String(repeating: "w", count: 1_001), "%n%s", "--json",
    ]

    static func randomArguments(_ rng: inout SeededRandom) -> [String] {
        var words = commands.randomElement(using: &rng)!
        for _ in 0..<Int.random(in: 0...5, using: &rng) {
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: words.append(options.randomElement(using: &rng)!)
            case 1: words.append(values.randomElement(using: &rng)!)
            default: words += [options.randomElement(using: &rng)!, values.randomElement(using: &rng)!]
            }
        }
        return words
    }

    @Test func randomCommandLinesExitCleanly() async throws {
        let data = try DataDirectory()
        try await data.ok("charge", "send")
        // The same 240 runs every time; RELIABILITY.md's longer runs set HOSTILE_CLI_RUNS and HOSTILE_CLI_SEED.
        let environment = ProcessInfo.processInfo.environment
        let wanted = environment["HOSTILE_CLI_RUNS"].flatMap { Int($0) } ?? 240
        let seed = environment["HOSTILE_CLI_SEED"].flatMap { UInt64($0) } ?? 14
        var rng = SeededRandom(seed: seed)
        let started = Date()
        let limit: TimeInterval = wanted == 240 ? 90 : .infinity
        var runs = 0
        while runs < wanted, Date().timeIntervalSince(started) < limit {
            runs += 1
            let arguments = Self.randomArguments(&rng)
            // A store that cannot be reached fails fast; stdin is empty for `run -`.
            let result = try await Credit.run(
                arguments, dataDirectory: data.path, now: "2026-11-29T12:00:00.000Z", input: "")
            let shown = arguments.map { quoted($0) }.joined(separator: " ")
            #expect([0, 1, 64].contains(result.status), "credit \(shown): \(result)")
            #expect(!result.stderr.contains("Fatal error"), "credit \(shown)")
            if result.status != 0, arguments.contains("--json"), !arguments.contains("--help") {
                let error = (try? result.json() as? [String: Any])?["error"] as? [String: Any]
                let anyJSON = (try? result.json()) != nil
                #expect(error != nil || anyJSON, "credit \(shown): stdout is not JSON: \(result)")
            }
        }
        #expect(runs >= 100, "only \(runs) runs in the time")
        if wanted != 240 {
            print("command-line fuzz: seed \(seed), \(runs) runs, \(Date().timeIntervalSince(started)) s")
        }
    }

    func quoted(_ word: String) -> String {
        "\"" + word.unicodeScalars.map { $0.escaped(asASCII: true) }.joined() + "\""
    }
}

/// A read-only data directory (mode 0500, read as user `nobody`): the screen and `collect` collect nothing and say so.
@Suite(.enabled(if: HostileCommand.canSwitchUsers, "needs root, setpriv and a checkout nobody may enter"))
struct ReadOnlyScreenCommandTests {
    @Test func theScreenAndCollectSayNothingWasCollected() async throws {
        let scratch = try HostileDataDirectoryCommandTests.Scratch(nobody: true)
        try await HostileCommand.expectOK(
            try HostileCommand.run(["charge", "debrief"], data: scratch.data, asNobody: true))
        #expect(chmod(scratch.data, 0o500) == 0)
        let before = HostileCommand.snapshot(scratch.data)
        for command in [["screen"], ["collect"], ["balance"]] {
            let result = try await HostileCommand.run(command, data: scratch.data, asNobody: true)
            #expect(result.status == 0, "\(command): \(result)")
            #expect(result.stderr.contains("nothing was collected or written"), "\(command): \(result)")
        }
        #expect(HostileCommand.snapshot(scratch.data) == before, "nothing was written")
    }
}
