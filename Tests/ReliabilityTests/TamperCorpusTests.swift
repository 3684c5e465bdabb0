import CreditLedger
import Foundation
import Payments
import Signing
import Testing
import TopUp
import VoiceDebriefCredit

/// Tampering: a seeded, generated corpus of tampered copies of a signed two-device ledger with store-backed top-ups,
/// one of every kind `credit verify` knows and then some: a field changed (middle and last line), a line inserted
/// (forged, or spliced from the other device), deleted, reordered, duplicated, cut off the end or in half, a fork
/// made with the key, an id reused with other content, an unreadable or unsigned line, the head's signature or
/// fields altered or the head deleted, an older copy restored, a top-up forged with the ledger's own keys but a
/// receipt that is fake or another transaction's or missing, and the wrong key. Must hold: every sample is reported,
/// with the kind expected; the untouched ledger is clean.
@Suite struct TamperCorpusTests {
    /// The untouched ledger, made once: alpha's own entries, two top-ups with HS256 receipts, a decline, beta merged.
    struct Base {
        let scratch: ScratchDirectory
        var directory: String { scratch.path }
        let device = "alpha-0001"

        static func make() async throws -> Base {
            let base = Base(scratch: try ScratchDirectory("tamper-base", inMemory: true))
            try await base.fill()
            return base
        }

        private func fill() async throws {
            let alpha = directory + "/alpha"
            let beta = directory + "/beta"
            try SharedKeys.install(in: alpha)
            try SharedKeys.install(in: beta)
            let clock = FixedClock(Timestamp(milliseconds: 1_795_953_600_000), step: 60_000)
            let ledger = try Ledger.openSigned(directory: alpha, clock: clock, ids: SequentialIDs(prefix: "alpha"))
            let other = try Ledger.openSigned(directory: beta, clock: clock, ids: SequentialIDs(prefix: "beta"))
            let features = ["debrief", "send", "transcript", "createVault", "send", "glossaryWord"]
            for (index, feature) in features.enumerated() {
                try ledger.append(charge("a-\(index)", pence: Int64(index + 2), feature: feature))
            }
            try ledger.decline("a-1", reason: try DeclineReason(key: "not-needed", text: nil))
            try other.append(charge("b-0", pence: 4, feature: "send"))
            try other.append(charge("b-1", pence: 6, feature: "debrief"))
            _ = try AccountSync(ledger).merge(files: [other.path(forDevice: other.device)])
            let store = ModelStore()
            let flow = TopUpFlow(
                ledger: ledger, store: store,
                verifier: ReceiptVerifier(
                    method: .hs256(secret: ModelStore.secret), bundleID: ModelStore.bundleID, environment: .sandbox),
                catalogue: TestPacks.twoPacks, bundleID: ModelStore.bundleID)
            _ = try await flow.topUp()
            _ = try await flow.topUp(productID: "ai.voicedebrief.app.credit.1000")
            try ledger.append(charge("a-9", pence: 3, feature: "debrief"))
        }

        var alpha: String { directory + "/alpha" }
    }

    /// One tampered copy and what `verify` must call it.
    struct Sample {
        var name: String
        /// The kind `verify` must report (any one of these).
        var expected: [VerificationProblem.Kind]
        /// Files to verify beyond the data directory's own (a second copy of a device file).
        var extraFiles: [String] = []
        /// Verify with another MAC key.
        var otherKey = false
        /// Verify the whole data directory as `credit verify` does (`Ledger.verify`): heads without files too.
        var wholeDirectory = false
    }

    static func receiptCheck(_ entry: LedgerEntry) -> String? {
        ReceiptAudit(
            verifier: ReceiptVerifier(
                method: .hs256(secret: ModelStore.secret), bundleID: ModelStore.bundleID, environment: .sandbox),
            catalogue: TestPacks.twoPacks
        )
        .problem(with: entry)
    }

    /// Verifies the data directory `directory` the way `credit verify` does: every device file, every head, this
    /// device's head required, receipts checked.
    static func verify(_ directory: String, device: String, extraFiles: [String] = [], otherKey: Bool = false) throws
        -> VerificationReport
    {
        let keys = try LedgerKeys.load(from: directory)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory + "/ledger").filter {
            $0.hasSuffix(".jsonl")
        }.sorted()
        var heads: [String: SignedHead] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory + "/heads")) ?? []
        where name.hasSuffix(".json") {
            let owner = String(name.dropLast(5))
            if let head = try SignedHead.read(in: directory, device: owner) { heads[owner] = head }
        }
        let macKey = otherKey ? Array(repeating: UInt8(7), count: 32) : keys.macKey
        let verifier = LedgerVerifier(macKey: macKey, headPublicKey: keys.headKey.publicKey, receiptCheck: receiptCheck)
        return try verifier.verify(
            files: names.map { directory + "/ledger/" + $0 } + extraFiles, heads: heads, requireHeads: [device])
    }
}

extension TamperCorpusTests {
    func lines(_ path: String) -> [[UInt8]] {
        Array((FileManager.default.contents(atPath: path) ?? Data())).split(
            separator: 0x0A, omittingEmptySubsequences: false
        ).dropLast().map(Array.init)
    }

    func write(_ lines: [[UInt8]], to path: String) throws {
        try Data(lines.flatMap { $0 + [UInt8(0x0A)] }).write(to: URL(fileURLWithPath: path))
    }

    /// `line` with the first `old` after `"key":` replaced by `new` (the bytes only; the MAC is not recomputed).
    func replacing(_ line: [UInt8], _ old: String, _ new: String) -> [UInt8] {
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: old) else { return line }
        return Array(text.replacingCharacters(in: range, with: new).utf8)
    }

    /// A line for `entry` signed with the ledger's own key (what someone holding the key file can write).
    func signedLine(_ entry: LedgerEntry, key: [UInt8]) throws -> [UInt8] {
        var entry = entry
        entry.mac = nil
        let body = EntryCodec.body(of: entry)
        let mac = try HMACAuthenticator(key: key).authenticationCode(for: body)
        return Array(EntryCodec.line(body: body, mac: mac.map { String(format: "%02x", $0) }.joined()).dropLast())
    }

    /// Makes the tampered copy for `kind` (one of the generators) in `directory`; returns the sample.
    func tamper(_ generator: Int, in directory: String, random: inout SeededRandom, device: String) throws -> Sample {
        let file = directory + "/ledger/\(device).jsonl"
        let beta = directory + "/ledger/beta-0001.jsonl"
        var own = lines(file)
        let keys = try LedgerKeys.load(from: directory)
        let middle = Int.random(in: 1..<(own.count - 1), using: &random)
        let entries = own.map { try? EntryCodec.parse($0) }
        switch generator {
        case 0:
            let field = random.pick([
                ("\"amount\":-", "\"amount\":-1"), ("\"feature\":\"", "\"feature\":\"x"), ("\"id\":\"", "\"id\":\"z"),
                ("T12:", "T13:"),
            ])
            let changed = replacing(own[middle], field.0, field.1)
            guard changed != own[middle] else { return try tamper(0, in: directory, random: &random, device: device) }
            own[middle] = changed
            try write(own, to: file)
            return Sample(name: "a field changed on line \(middle + 1) (\(field.0))", expected: [.changed])
        case 1:
            own[own.count - 1] = replacing(own[own.count - 1], "\"quantity\":1", "\"quantity\":2")
            try write(own, to: file)
            return Sample(name: "the last line changed", expected: [.changed])
        case 2:
            var forged = try #require(entries[middle])
            forged.id = "forged-\(middle)"
            forged.amount = MicroCredits(9_000_000)
            let mac = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &random)) }.joined()
            own.insert(Array(EntryCodec.line(body: EntryCodec.body(of: forged), mac: mac).dropLast()), at: middle + 1)
            try write(own, to: file)
            return Sample(name: "a forged line inserted after line \(middle + 1)", expected: [.inserted])
        case 3:
            let spliced = lines(beta)[Int.random(in: 1..<lines(beta).count, using: &random)]
            own.insert(spliced, at: middle)
            try write(own, to: file)
            return Sample(name: "another device's line spliced in at line \(middle + 1)", expected: [.inserted])
        case 4:
            own.remove(at: middle)
            try write(own, to: file)
            return Sample(name: "line \(middle + 1) deleted", expected: [.deleted])
        case 5:
            let other = middle + 1 < own.count - 1 ? middle + 1 : middle - 1
            own.swapAt(middle, other)
            try write(own, to: file)
            return Sample(name: "lines \(middle + 1) and \(other + 1) swapped", expected: [.reordered])
        case 6:
            let count = Int.random(in: 1...3, using: &random)
            try write(Array(own.dropLast(count)), to: file)
            return Sample(name: "the last \(count) lines cut off", expected: [.truncated])
        case 7:
            let last = own.removeLast()
            try Data(own.flatMap { $0 + [UInt8(0x0A)] } + last.prefix(last.count / 2)).write(
                to: URL(fileURLWithPath: file))
            return Sample(name: "the last line cut in half", expected: [.truncated])
        case 8:
            var fork = try #require(entries[middle])
            fork.amount = MicroCredits(fork.amount.rawValue - 10_000)
            fork.text = "fork"
            own.insert(try signedLine(fork, key: keys.macKey), at: middle + 1)
            try write(own, to: file)
            return Sample(name: "a fork made with the key after line \(middle + 1)", expected: [.forked])
        case 9:
            var fork = try #require(entries[own.count - 1])
            fork.amount = MicroCredits(fork.amount.rawValue - 10_000)
            var copy = own
            copy[copy.count - 1] = try signedLine(fork, key: keys.macKey)
            try FileManager.default.createDirectory(atPath: directory + "/copy", withIntermediateDirectories: true)
            let second = directory + "/copy/\(device).jsonl"
            try write(copy, to: second)
            return Sample(
                name: "two copies of the device file differing at the end", expected: [.forked], extraFiles: [second])
        case 10:
            own.insert(own[middle], at: middle + 1)
            try write(own, to: file)
            return Sample(name: "line \(middle + 1) duplicated", expected: [.duplicated])
        case 11:
            var betaLines = lines(beta)
            let previous = try #require(try? EntryCodec.parse(betaLines[betaLines.count - 1]))
            var reused = try #require(entries[middle])
            reused.device = previous.device
            reused.sequence = previous.sequence + 1
            reused.prev = previous.mac
            reused.amount = MicroCredits(reused.amount.rawValue + 20_000)
            betaLines.append(try signedLine(reused, key: keys.macKey))
            try write(betaLines, to: beta)
            return Sample(
                name: "id \(reused.id) reused on the other device with other content", expected: [.duplicated])
        case 12:
            own.insert(
                Array("{\"id\":\"garbage\",".utf8)
                    + [UInt8](repeating: 0x41, count: Int.random(in: 0...40, using: &random)), at: middle)
            try write(own, to: file)
            return Sample(name: "an unreadable line at \(middle + 1)", expected: [.unreadable])
        case 13:
            var plain = try #require(entries[middle])
            plain.mac = nil
            plain.prev = nil
            own[middle] = Array(EntryCodec.line(body: EntryCodec.body(of: plain), mac: nil).dropLast())
            try write(own, to: file)
            return Sample(name: "line \(middle + 1) unsigned", expected: [.unsigned])
        case 14:
            let path = SignedHead.path(in: directory, device: device)
            var head = try #require(try SignedHead.read(in: directory, device: device))
            switch Int.random(in: 0..<3, using: &random) {
            case 0: head.balance += 1_000_000
            case 1: head.time = "2030-01-01T00:00:00.000Z"
            default:
                var signature = Array(head.signature.utf8)
                signature[signature.count / 2] = signature[signature.count / 2] == 0x41 ? 0x42 : 0x41
                head.signature = String(decoding: signature, as: UTF8.self)
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try (try encoder.encode(head) + Data([0x0A])).write(to: URL(fileURLWithPath: path))
            return Sample(name: "the head altered", expected: [.headInvalid])
        case 15:
            try FileManager.default.removeItem(atPath: SignedHead.path(in: directory, device: device))
            return Sample(name: "the head deleted", expected: [.headMissing])
        case 16:
            // An older copy restored: the file as it was some entries ago, its head kept.
            let keep = Int.random(in: 2..<(own.count - 1), using: &random)
            try write(Array(own.prefix(keep)), to: file)
            return Sample(name: "an older copy (\(keep) lines) restored", expected: [.truncated])
        case 17, 18, 19:
            // Someone with the ledger's keys forges a top-up: chained, MAC'd, head signed. Only the store's
            // receipt can tell.
            let ledger = try Ledger.openSigned(
                directory: directory, clock: FixedClock(Timestamp(milliseconds: 1_796_000_000_000)))
            let real = try #require(ledger.distinctEntries.first { $0.kind == .topup && $0.receipt != nil })
            let receipt: String?
            let what: String
            switch generator {
            case 17:
                let payload = try CompactJWS.parse(try #require(real.receipt)).payload
                receipt = try CompactJWS.sign(
                    payload: payload, with: .hs256(secret: Array("not the store's secret".utf8)))
                what = "a receipt signed with another secret"
            case 18:
                receipt = real.receipt
                what = "another transaction's receipt"
            default:
                receipt = nil
                what = "no receipt"
            }
            try ledger.append(
                EntryDraft(
                    id: EntryDraft.topUpID(store: "mockstore", reference: "FORGED-\(generator)"), kind: .topup,
                    amount: MicroCredits(5_000_000), text: "Top-up through the mockstore",
                    reference: "FORGED-\(generator)",
                    product: "ai.voicedebrief.app.credit.500", receipt: receipt))
            return Sample(name: "a top-up forged with the ledger's keys, \(what)", expected: [.receiptInvalid])
        case 20:
            // Someone with the key credits a real top-up's store transaction again under a new id: chained and
            // MAC'd at the end of the file.
            let real = try #require(entries.compactMap { $0 }.first { $0.kind == .topup && $0.reference != nil })
            let last = try #require(entries.last ?? nil)
            var replay = real
            replay.id = real.id + "-again"
            replay.sequence = last.sequence + 1
            replay.prev = last.mac
            try write(own + [try signedLine(replay, key: keys.macKey)], to: file)
            return Sample(name: "a receipt credited again under another id", expected: [.receiptReplayed])
        case 21:
            // The merged device's file cut back below the head kept for it.
            let merged = lines(beta)
            try write(Array(merged.dropLast()), to: beta)
            return Sample(name: "the merged device's file cut back", expected: [.truncated])
        case 22:
            // The merged device's file removed: its head is left.
            try FileManager.default.removeItem(atPath: beta)
            return Sample(name: "a head whose device file is gone", expected: [.headOrphaned], wholeDirectory: true)
        default:
            return Sample(
                name: "verified with another key", expected: [.changed, .inserted, .otherAccount], otherKey: true)
        }
    }

    static let generators = 24

    @Test func theUntouchedLedgerIsClean() async throws {
        let base = try await Base.make()
        let report = try TamperCorpusTests.verify(base.alpha, device: base.device)
        #expect(report.isClean, "\(report.problems.map(\.description))")
        #expect(report.receiptsChecked == 2)
    }

    @Test func everyTamperedLedgerInTheCorpusIsDetected() async throws {
        var figures = Figures(suite: "tampering", test: #function)
        defer { figures.record() }
        let base = try await Base.make()
        var kindsSeen: Set<VerificationProblem.Kind> = []
        var seeds = Reliability.seeds(
            "tamper", fast: 5 * TamperCorpusTests.generators, long: 60 * TamperCorpusTests.generators)
        // A bounded run (RELIABILITY_RUNS fewer than the generators) still tries every generator once.
        if Reliability.replaySeed == nil, seeds.count < TamperCorpusTests.generators {
            var more = SeededRandom(seed: seeds.last ?? 1)
            while seeds.count < TamperCorpusTests.generators { seeds.append(more.next()) }
        }
        let corpusOut = Reliability.environment["RELIABILITY_TAMPER_CORPUS"]
        for (index, seed) in seeds.enumerated() {
            var random = SeededRandom(seed: seed)
            // Every generator in turn (so a bounded run covers each), the positions seeded.
            let generator =
                Reliability.replaySeed == nil
                ? index % TamperCorpusTests.generators
                : Int.random(in: 0..<TamperCorpusTests.generators, using: &random)
            let scratch = try ScratchDirectory("tamper", inMemory: true)
            let directory = scratch.path + "/data"
            try FileManager.default.copyItem(atPath: base.alpha, toPath: directory)
            try? FileManager.default.removeItem(atPath: directory + "/checkpoint")
            let sample = try tamper(generator, in: directory, random: &random, device: base.device)
            figures.runs += 1
            figures.faults += 1
            let report =
                sample.wholeDirectory
                ? try LedgerVerifier.verify(
                    directory: directory, requiringHeadOf: base.device, receiptCheck: TamperCorpusTests.receiptCheck)
                : try TamperCorpusTests.verify(
                    directory, device: base.device, extraFiles: sample.extraFiles, otherKey: sample.otherKey)
            figures.entriesChecked += report.entriesChecked
            let kinds = Set(report.problems.map(\.kind))
            kindsSeen.formUnion(kinds)
            if kinds.isDisjoint(with: sample.expected) {
                figures.failures += 1
                Issue.record(
                    """
                    \(sample.name): expected \(sample.expected.map(\.rawValue).joined(separator: " or ")), verify found \(report.problems.isEmpty ? "nothing" : report.problems.map(\.description).joined(separator: "; "))
                    \(Reliability.replayHint(seed: seed, test: "everyTamperedLedgerInTheCorpusIsDetected"))
                    """)
            }
            if let corpusOut {
                let target = corpusOut + "/\(String(format: "%04d", index))-\(sample.expected[0].rawValue)"
                try? FileManager.default.createDirectory(atPath: corpusOut, withIntermediateDirectories: true)
                try? FileManager.default.removeItem(atPath: target)
                try? FileManager.default.copyItem(atPath: directory, toPath: target)
            }
        }
        if Reliability.replaySeed == nil {
            let expected: Set<VerificationProblem.Kind> = [
                .changed, .inserted, .deleted, .reordered, .truncated, .forked, .duplicated, .unreadable, .headInvalid,
                .headMissing, .receiptInvalid, .unsigned, .receiptReplayed, .headOrphaned,
            ]
            #expect(kindsSeen.isSuperset(of: expected), "kinds never produced: \(expected.subtracting(kindsSeen))")
        }
    }
}
