import Foundation
import Testing

/// The libraries an iOS app links hold nothing that stops an iOS build (issue 33): no Glibc, libcurl or mock-store
/// HTTP import, no spawned process, no OpenSSL outside Signing's Linux side, and none of Signing's Linux-only types.
///
/// Reads the source tree (found from this file's path), so it runs on Linux, where no Apple SDK can build them.
@Suite struct AppLibrarySourceTests {
    /// The targets the app links, under Sources/.
    static let appLibraries = [
        "CreditLedger", "Signing", "Payments", "TopUp", "VoiceDebriefCredit", "AppStorePayments", "DurableFiles",
        "StoreTransport", "StoreWire", "Clocks",
    ]

    @Test func appLibrariesHoldNothingThatStopsAnIOSBuild() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        var files = 0
        for library in Self.appLibraries {
            let directory = sources.appendingPathComponent(library)
            let paths = try #require(FileManager.default.subpaths(atPath: directory.path), "no \(directory.path)")
            for path in paths.sorted() where path.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8)
                files += 1
                for problem in AppLibrarySource.problems(in: text, library: library) {
                    Issue.record("Sources/\(library)/\(path): \(problem)")
                }
            }
        }
        // The scan found the tree: far more files than this, so a moved tree fails rather than passes empty.
        #expect(files > 100, "only \(files) Swift files found under \(sources.path)")
    }

    /// The check itself catches each kind of line it exists for (a check that passes everything would pass too).
    @Test(arguments: [
        "import Glibc", "@_exported import Glibc", "import CCurl", "import MockStoreHTTP", "let p = Process()",
        "posix_spawn(&pid, path, nil, nil, argv, nil)", "let child = fork()", "import COpenSSL",
        "#if canImport(COpenSSL)\nimport COpenSSL\n#endif", "#if canImport(CryptoKit)\nimport COpenSSL\n#endif",
        "let key = try P256PointKey(derRepresentation: der)", "let digest = SHA384.hash(bytes)",
        "let ca = try TestCertificateAuthority.make()",
    ])
    func catchesTheLinesItIsFor(_ line: String) {
        #expect(!AppLibrarySource.problems(in: line + "\n", library: "CreditLedger").isEmpty)
    }

    @Test func passesTheLinuxSideGuardAndComments() {
        let guarded = "// Process() in a comment\n#if !canImport(CryptoKit)\nimport COpenSSL\nlet x = 1\n#endif\n"
        #expect(AppLibrarySource.problems(in: guarded, library: "Signing") == [])
        let elseSide = "#if canImport(CryptoKit)\n    import CryptoKit\n#else\n    import COpenSSL\n#endif\n"
        #expect(AppLibrarySource.problems(in: elseSide, library: "Signing") == [])
        // Code outside the guard of a file that imports COpenSSL would be on the Apple side too.
        let leaking = "#if !canImport(CryptoKit)\nimport COpenSSL\n#endif\nlet x = EVP_MD_fetch(nil, \"SHA256\", nil)\n"
        #expect(!AppLibrarySource.problems(in: leaking, library: "Signing").isEmpty)
    }
}

/// The line checks of ``AppLibrarySourceTests``.
enum AppLibrarySource {
    /// The one switch between Signing's two sides: OpenSSL where CryptoKit is not (Linux).
    static let linuxGuard = "!canImport(CryptoKit)"
    /// Signing's Apple side.
    static let appleGuard = "canImport(CryptoKit)"

    /// Calls and imports that do not build for iOS, as regular expressions over a line without its comment.
    static let forbidden: [(pattern: String, why: String)] = [
        (#"^\s*(@\w+\s+)*import\s+(Glibc|CCurl|MockStoreHTTP)\b"#, "imports a library iOS does not have"),
        (#"\bProcess\s*\("#, "spawns a process"),
        (#"\bposix_spawnp?\b"#, "spawns a process"),
        (#"\b(v?fork)\s*\("#, "forks"),
        (#"\b(CertificateBuilder|TestCertificateAuthority|P256PointKey|SHA384)\b"#, "uses a Linux-only Signing type"),
    ]

    /// What is wrong with `text`, a Swift file of `library`, line by line.
    static func problems(in text: String, library: String) -> [String] {
        var problems: [String] = []
        // The open `#if`s: each one's condition, and whether the line is in its `#else`.
        var open: [(condition: String, inElse: Bool)] = []
        var outsideGuard: [Int] = []
        var importsOpenSSL = false
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.components(separatedBy: "//")[0].trimmingCharacters(in: .whitespaces)
            let number = index + 1
            if line.hasPrefix("#if ") {
                open.append((String(line.dropFirst(4)).trimmingCharacters(in: .whitespaces), false))
                continue
            } else if line.hasPrefix("#elseif "), !open.isEmpty {
                open[open.count - 1] = (String(line.dropFirst(8)).trimmingCharacters(in: .whitespaces), false)
                continue
            } else if line == "#else", !open.isEmpty {
                open[open.count - 1].inElse = true
                continue
            } else if line.hasPrefix("#endif") {
                _ = open.popLast()
                continue
            }
            // The Linux side: `#if !canImport(CryptoKit)`, or the `#else` of `#if canImport(CryptoKit)`.
            let onLinuxSide = open.contains {
                ($0.condition == linuxGuard && !$0.inElse) || ($0.condition == appleGuard && $0.inElse)
            }
            let onAppleSide = open.contains {
                ($0.condition == appleGuard && !$0.inElse) || ($0.condition == linuxGuard && $0.inElse)
            }
            if !line.isEmpty, !onLinuxSide, !onAppleSide { outsideGuard.append(number) }
            if line.range(of: #"^(@\w+\s+)*import\s+COpenSSL\b"#, options: .regularExpression) != nil {
                importsOpenSSL = true
                if !onLinuxSide { problems.append("line \(number) imports COpenSSL outside #if \(linuxGuard)") }
            }
            // Signing's Linux side may use Signing's Linux-only types; nothing else may.
            for rule in forbidden where !(onLinuxSide && library == "Signing" && rule.why.contains("Signing type")) {
                if line.range(of: rule.pattern, options: .regularExpression) != nil {
                    problems.append("line \(number) \(rule.why): \(line)")
                }
            }
        }
        // A file over OpenSSL holds nothing outside the two sides' guards: such lines would build on Apple platforms
        // too.
        if importsOpenSSL, !outsideGuard.isEmpty {
            problems.append("code outside #if \(linuxGuard) in a file that imports COpenSSL, lines \(outsideGuard)")
        }
        return problems
    }
}
