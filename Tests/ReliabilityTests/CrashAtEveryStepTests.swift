import CreditLedger
import Foundation
import MockStoreTesting
import StoreTestControls
import Testing

/// Crash at every step: the real `credit` binary against a real `mockstore`, killed with SIGKILL at a fault point
/// (`CREDIT_FAULT`, compiled into debug builds) in the middle of making the ledger, charging, declining, a session of
/// acts, a top-up, a collect, a merge or setting a torn tail aside; then restarted (`credit collect`, itself killed
/// now and then), and at the end collected once more. Must hold after every step and at the end: every line whole,
/// every sequence contiguous, every acknowledged entry there unchanged, nothing beyond them but what the killed
/// command was writing (a prefix of it); every purchase made at the store credited exactly once and finished; the
/// chain, heads and receipts verify (a head one behind is a note); the balance is what the model says.
@Suite struct CrashAtEveryStepTests {}

/// What a command writes, in order, as (kind, feature, amount): what may appear when it is killed.
struct ExpectedWrite: Equatable, CustomStringConvertible {
    var kind: String
    var feature: String?
    var amount: Int64
    var description: String { "\(kind) \(feature ?? "") \(amount)" }
}

/// One run of the harness: a data directory on a shared store, a peer device to merge from, and the model.
final class CrashRun {
    let store: StoreServer
    let root: String
    let scratch: ScratchDirectory
    let credit: CreditRunner
    let peer: CreditRunner
    var random: SeededRandom
    let seed: UInt64
    var log: [String] = []

    /// Acknowledged entries, by id: their essence.
    var acked: [String: LedgerEntry] = [:]
    /// Charges acknowledged and not yet declined.
    var declinable: [String] = []
    /// Credit bought at the store (each purchase's amount), whether or not the app recorded it yet.
    var purchases: [Int64] = []
    var kills = 0
    var entriesChecked = 0
    /// Transactions the store refunded (and not reversed since).
    var refunded: Set<String> = []
    /// How many refund steps are written for each transaction (odd: refunded, even: refund reversed).
    var refundSteps: [String: Int] = [:]
    var peerMerged = false

    static let prices: [String: Int64] = [
        "debrief": -50_000, "send": -10_000, "cleanPassage": -10_000, "importFile": -10_000, "glossaryWord": -10_000,
        "createVault": -100_000, "addRecipient": -10_000, "addServer": -10_000, "deleteNote": -10_000,
    ]

    init(store: StoreServer, root: String, seed: UInt64) throws {
        self.store = store
        self.root = root
        self.seed = seed
        random = SeededRandom(seed: seed)
        scratch = try ScratchDirectory("crash", inMemory: true)
        credit = try CreditRunner(dataDirectory: scratch.file("data"))
        peer = try CreditRunner(dataDirectory: scratch.file("peer"))
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func fail(_ message: String) -> Failure {
        Failure(
            description:
                "\(message)\n\(Reliability.replayHint(seed: seed, test: "seededRunsKilledAtRandomSteps"))\nsteps:\n  "
                + log.suffix(30).joined(separator: "\n  "))
    }

    /// Runs `credit ARGUMENTS`, killed at `fault` when given; returns the result, logging it.
    func run(_ arguments: [String], fault: String?) async throws -> ProcessResult {
        let result = try await credit.run(arguments, fault: fault)
        let outcome =
            result.killedBySIGKILL ? "killed" : (result.signaled ? "signal \(result.status)" : "exit \(result.status)")
        log.append(
            "credit \(arguments.joined(separator: " "))\(fault.map { " [CREDIT_FAULT=\($0)]" } ?? ""): \(outcome)")
        if result.timedOut { throw fail("credit \(arguments.joined(separator: " ")) hung: \(result)") }
        if result.signaled && !result.killedBySIGKILL { throw fail("credit crashed: \(result)") }
        if result.killedBySIGKILL {
            guard fault != nil else { throw fail("killed without a fault point: \(result)") }
            kills += 1
        }
        return result
    }

    /// Runs a command that must succeed unless killed at its fault point.
    func expectDone(_ result: ProcessResult, _ what: String) throws {
        if !result.killedBySIGKILL && result.status != 0 { throw fail("\(what) failed: \(result)") }
    }

    /// The restart after a kill: `credit collect` (sets a torn tail aside, collects what the store holds), itself
    /// killed now and then, until one completes.
    func restart() async throws {
        var attempts = 0
        while true {
            attempts += 1
            let fault =
                attempts < 3 && random.chance(0.3)
                ? random.pick([
                    "torn.before-truncate", "replace.before-rename", "topup.after-record", "topup.before-record",
                    "append.before-sync", "append.mid-line", "collect.before-cursor", "head.before-write",
                ])
                : nil
            let result = try await run(["collect", "--json"], fault: fault)
            try expectDone(result, "the restart")
            if !result.killedBySIGKILL { return }
        }
    }

    /// The ledger as its files say, checked: whole lines, contiguous sequences, the acknowledged entries unchanged,
    /// and anything new allowed by `inFlight` (as a prefix) or a top-up. New entries are taken into the model.
    func reconcile(inFlight: [ExpectedWrite], killed: Bool) throws {
        let inspection = try LedgerInspection(dataDirectory: credit.dataDirectory)
        entriesChecked += inspection.entries.count
        if !inspection.problems.isEmpty { throw fail("damaged files: \(inspection.problems)") }
        for (id, entry) in acked {
            guard let now = inspection.byID[id] else { throw fail("acknowledged entry \(id) is gone") }
            if now.essence != entry.essence {
                throw fail("acknowledged entry \(id) changed: \(entry.essence) -> \(now.essence)")
            }
        }
        let fresh = inspection.entries.filter { acked[$0.id] == nil && $0.kind != .topup }
        let unexpected = fresh.map {
            ExpectedWrite(kind: $0.kind.rawValue, feature: $0.feature, amount: $0.amount.rawValue)
        }
        if unexpected.count > inFlight.count || Array(inFlight.prefix(unexpected.count)) != unexpected {
            throw fail(
                "entries nobody acknowledged: \(unexpected), while the command \(killed ? "killed" : "done") was writing \(inFlight)"
            )
        }
        for entry in fresh {
            acked[entry.id] = entry
            if entry.kind == .charge { declinable.append(entry.id) }
        }
        // Top-ups: one per transaction, never two (a re-credit after a reversed refund refers to its reversal).
        let references = inspection.entries.filter { $0.kind == .topup && $0.refersTo == nil }.compactMap(\.reference)
        if Set(references).count != references.count {
            throw fail("a transaction credited twice: \(references.sorted())")
        }
        for entry in inspection.entries where entry.kind == .topup { acked[entry.id] = entry }
    }

    /// The shared store refunds `reference` (`percentage` in milliunits: a part of it), or reverses its refund,
    /// through the test library's typed calls; it must succeed.
    func storeRefund(_ reference: String, percentage: Int? = nil, reverse: Bool = false) async throws {
        let what = reverse ? "reverse-refund \(reference)" : "refund \(reference)" + (percentage.map { " \($0)" } ?? "")
        do {
            if reverse {
                try await store.testStore.reverseRefund(reference)
            } else {
                try await store.testStore.refund(reference, percentage: percentage)
            }
        } catch {
            log.append("store \(what): \(error)")
            throw fail("the store refused \(what): \(error)")
        }
        log.append("store \(what): done")
    }

    /// The next refund step of `reference` is in the ledger, acknowledged: one step more than before (each named by
    /// the store's refund event, so counted rather than looked up by a number).
    func expectStep(_ reference: String, _ message: String) throws {
        let held = acked.values.filter { RefundStep(entry: $0)?.reference == reference }.count
        guard held == (refundSteps[reference] ?? 0) + 1 else { throw fail(message + " (\(held) steps held)") }
        refundSteps[reference] = held
    }

    /// A fault point for a command that appends `appends` times (at which append, from 1), or none.
    func pickFault(appends: Int, extra: [String] = []) -> String? {
        guard random.chance(0.65) else { return nil }
        let occurrence = Int.random(in: 1...max(1, appends), using: &random)
        let points = [
            "append.before-write", "append.mid-line", "append.before-sync", "append.after-sync",
            "head.before-write", "replace.before-sync", "replace.before-rename", "replace.before-directory-sync",
        ]
        let point = random.pick(points + extra + extra)
        return point.hasPrefix("append.") || point.hasPrefix("head.") || point.hasPrefix("replace.")
            ? "\(point)@\(occurrence)" : point
    }

    /// The whole run: make the ledger, then random steps, then a final collect and the checks.
    func execute(steps: Int, forced: (step: String, fault: String)? = nil) async throws {
        // Making the ledger: an opening entry, the device file, the first head.
        let makeFault = forced.map { $0.step == "make" ? $0.fault : nil } ?? pickFault(appends: 1)
        // The first command that writes makes it (one that only reads makes nothing); the simulated store has
        // nothing to collect, so the opening is all it writes.
        let made = try await run(["collect"], fault: makeFault)
        try expectDone(made, "making the ledger")
        if made.killedBySIGKILL { _ = try await run(["collect"], fault: nil) }
        try reconcile(
            inFlight: [ExpectedWrite(kind: "opening", feature: nil, amount: 5_000_000)], killed: made.killedBySIGKILL)
        try await expectDone(
            try run(["store", "use", "mockstore", "--url", store.url, "--root-certificate", root], fault: nil),
            "store use")
        if let forced, forced.step != "make" {
            if forced.step == "decline" { try await step("charge", fault: "none") }
            if forced.step == "refund" || forced.step == "reinstate" { try await step("topup", fault: "none") }
            if forced.step == "reinstate" { try await step("refund", fault: "none") }
            try await step(forced.step, fault: forced.fault)
        }
        for _ in 0..<steps {
            try await step(
                random.pick([
                    "charge", "charge", "run", "topup", "topup", "decline", "collect", "merge", "refund", "reinstate",
                ]),
                fault: nil)
        }
        // The end: one more collect, no fault, then everything must hold.
        _ = try await run(["collect", "--json"], fault: nil)
        try reconcile(inFlight: [], killed: false)
        let unfinished = try store.unfinished().compactMap(transactionID(ofSigned:))
        let mine = try LedgerInspection(dataDirectory: credit.dataDirectory).entries.compactMap(\.reference)
        let left = unfinished.filter { mine.contains($0) }
        if !left.isEmpty { throw fail("credited but never finished at the store: \(left)") }
        let inspection = try LedgerInspection(dataDirectory: credit.dataDirectory)
        let topUps = inspection.entries.filter { $0.kind == .topup && $0.refersTo == nil }.map(\.amount.rawValue)
        if topUps.sorted() != purchases.sorted() {
            throw fail("bought \(purchases.sorted()) at the store, credited \(topUps.sorted())")
        }
        let verify = try await run(["verify", "--json"], fault: nil)
        guard let report = verify.jsonObject(), report["ok"] as? Bool == true else { throw fail("verify: \(verify)") }
        let model = acked.values.reduce(Int64(0)) { $0 + $1.amount.rawValue }
        let balance = try await credit.balance()
        if balance != model || inspection.balance != model {
            throw fail("balance \(balance), files \(inspection.balance), model \(model)")
        }
        // The store is shared by the runs that follow, each a new device reading the whole updates feed: a refund this
        // run reversed is refunded again, or the next run would credit a purchase it never made.
        for (reference, steps) in refundSteps.sorted(by: { $0.key < $1.key }) where steps % 2 == 0 {
            try await storeRefund(reference)
        }
    }

    /// One step; `forced` is its fault point ("none": no fault), or nil to pick one at random.
    func step(_ kind: String, fault forcedPoint: String?) async throws {
        let forced: String?? = forcedPoint.map { point -> String? in point == "none" ? nil : point }
        switch kind {
        case "charge":
            let key = random.pick(Array(CrashRun.prices.keys).sorted())
            let fault = forced ?? pickFault(appends: 1)
            let result = try await run(["charge", key, "--json"], fault: fault)
            try expectDone(result, "charge")
            if result.killedBySIGKILL { try await restart() }
            let expected = [ExpectedWrite(kind: "charge", feature: key, amount: CrashRun.prices[key]!)]
            if !result.killedBySIGKILL, let id = result.jsonObject()?["id"] as? String {
                try reconcile(inFlight: expected, killed: false)
                if acked[id] == nil { throw fail("charge \(id) acknowledged but not in the ledger") }
            } else {
                try reconcile(inFlight: expected, killed: true)
            }
        case "run":
            let keys = (0..<Int.random(in: 2...4, using: &random)).map { _ in
                random.pick(Array(CrashRun.prices.keys).sorted())
            }
            let acts = scratch.file("acts-\(log.count).txt")
            try keys.joined(separator: "\n").write(toFile: acts, atomically: true, encoding: .utf8)
            let fault = forced ?? pickFault(appends: keys.count)
            let result = try await run(["run", acts, "--json"], fault: fault)
            try expectDone(result, "run")
            if result.killedBySIGKILL { try await restart() }
            try reconcile(
                inFlight: keys.map { ExpectedWrite(kind: "charge", feature: $0, amount: CrashRun.prices[$0]!) },
                killed: result.killedBySIGKILL)
        case "decline":
            guard !declinable.isEmpty else { return try await step("charge", fault: forcedPoint) }
            let target = declinable.remove(at: Int.random(in: 0..<declinable.count, using: &random))
            let amount = acked[target]!.amount.rawValue
            let fault = forced ?? pickFault(appends: 1)
            let result = try await run(["decline", target, "--reason", "not-needed", "--json"], fault: fault)
            try expectDone(result, "decline")
            if result.killedBySIGKILL { try await restart() }
            try reconcile(
                inFlight: [ExpectedWrite(kind: "refund", feature: acked[target]!.feature, amount: -amount)],
                killed: result.killedBySIGKILL)
            if !result.killedBySIGKILL && acked["refund-" + target] == nil {
                throw fail("decline of \(target) acknowledged but not there")
            }
        case "topup":
            // The app sells one pack (the owner's note): every top-up through the binary buys it.
            let product = "ai.voicedebrief.app.credit.500"
            let fault =
                forced
                ?? pickFault(
                    appends: 1,
                    extra: ["topup.after-purchase", "topup.before-record", "topup.after-record", "topup.after-finish"])
            let result = try await run(["topup", "--product", product, "--json"], fault: fault)
            try expectDone(result, "topup")
            // Every top-up that ran reached the store: the purchase is made before anything else can kill it.
            purchases.append(5_000_000)
            if result.killedBySIGKILL { try await restart() }
            try reconcile(inFlight: [], killed: result.killedBySIGKILL)
            if !result.killedBySIGKILL, let id = result.jsonObject()?["id"] as? String, acked[id] == nil {
                throw fail("top-up \(id) acknowledged but not in the ledger")
            }
        case "collect":
            // Something to collect: bought at the store, the app died before recording it.
            if forcedPoint != nil || random.chance(0.7) {
                _ = try store.purchase()
                purchases.append(5_000_000)
                log.append("(a purchase at the store, never recorded by the app)")
            }
            let fault =
                forced
                ?? pickFault(
                    appends: 1,
                    extra: ["topup.before-record", "topup.after-record", "topup.after-finish", "collect.before-cursor"])
            let result = try await run(["collect", "--json"], fault: fault)
            try expectDone(result, "collect")
            if result.killedBySIGKILL { try await restart() }
            try reconcile(inFlight: [], killed: result.killedBySIGKILL)
        case "merge":
            // The peer device: same keys (one per user), its own file.
            if !FileManager.default.fileExists(atPath: peer.dataDirectory + "/keys") {
                try FileManager.default.createDirectory(atPath: peer.dataDirectory, withIntermediateDirectories: true)
                try FileManager.default.copyItem(
                    atPath: credit.dataDirectory + "/keys", toPath: peer.dataDirectory + "/keys")
            }
            let key = random.pick(Array(CrashRun.prices.keys).sorted())
            try await peer.ok(["charge", key])
            let peerDevice = try String(contentsOfFile: peer.dataDirectory + "/device", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let peerFile = peer.dataDirectory + "/ledger/" + peerDevice + ".jsonl"
            let peerEntries = LedgerInspection(bytes: Array(FileManager.default.contents(atPath: peerFile) ?? Data()))
                .entries
            let fault =
                forced
                ?? (random.chance(0.6)
                    ? random.pick(["merge.mid-write", "merge.before-sync", "append.before-sync@1"]) : nil)
            let result = try await run(["merge", peerFile, "--json"], fault: fault)
            try expectDone(result, "merge")
            if result.killedBySIGKILL { try await restart() }
            let expected = peerEntries.filter { acked[$0.id] == nil }.map {
                ExpectedWrite(kind: $0.kind.rawValue, feature: $0.feature, amount: $0.amount.rawValue)
            }
            try reconcile(inFlight: expected, killed: result.killedBySIGKILL)
            if !result.killedBySIGKILL {
                for entry in peerEntries where acked[entry.id] == nil { throw fail("merged \(entry.id) is not there") }
            }
        case "refund":
            // The store refunds a credited top-up (now and then a part of it); the next collect takes that back, once.
            let refundable = acked.values.filter { entry in
                entry.kind == .topup && entry.refersTo == nil
                    && entry.reference.map { !refunded.contains($0) } == true
            }.sorted { $0.id < $1.id }
            guard !refundable.isEmpty else { return try await step("topup", fault: forcedPoint) }
            let target = refundable[Int.random(in: 0..<refundable.count, using: &random)]
            let reference = target.reference!
            let percentage = random.chance(0.3) ? 50_000 : nil
            try await storeRefund(reference, percentage: percentage)
            refunded.insert(reference)
            let taken = percentage == nil ? target.amount.rawValue : target.amount.rawValue / 2
            let fault =
                forced
                ?? pickFault(
                    appends: 1, extra: ["refund.before-record", "refund.after-record", "collect.before-cursor"])
            let result = try await run(["collect", "--json"], fault: fault)
            try expectDone(result, "collect after a refund")
            if result.killedBySIGKILL { try await restart() }
            try reconcile(
                inFlight: [ExpectedWrite(kind: "reversal", feature: nil, amount: -taken)],
                killed: result.killedBySIGKILL)
            try expectStep(reference, "the refund of \(reference) was not taken back")
        case "reinstate":
            // The store reverses a refund; the next collect gives the credit again, once.
            guard let reference = refunded.sorted().first else { return try await step("refund", fault: forcedPoint) }
            try await storeRefund(reference, reverse: true)
            refunded.remove(reference)
            let fault =
                forced ?? pickFault(appends: 1, extra: ["refund.before-record", "refund.after-record"])
            let result = try await run(["collect", "--json"], fault: fault)
            try expectDone(result, "collect after a reversed refund")
            if result.killedBySIGKILL { try await restart() }
            try reconcile(inFlight: [], killed: result.killedBySIGKILL)
            try expectStep(reference, "the reversed refund of \(reference) was not given back")
        default:
            throw fail("unknown step \(kind)")
        }
    }
}

extension CrashAtEveryStepTests {
    /// Every fault point once, at the step that reaches it, so the fast mode misses none.
    static let sweep: [(step: String, fault: String)] = [
        ("make", "append.before-write@1"), ("make", "append.mid-line@1"), ("make", "append.before-sync@1"),
        ("make", "append.after-sync@1"), ("make", "replace.before-sync@1"), ("make", "replace.before-rename@1"),
        ("make", "replace.before-directory-sync@1"), ("make", "replace.before-sync@2"),
        ("make", "replace.before-rename@2"),
        ("charge", "append.before-write"), ("charge", "append.mid-line"), ("charge", "append.before-sync"),
        ("charge", "append.after-sync"), ("charge", "head.before-write"), ("charge", "replace.before-rename"),
        ("decline", "append.mid-line"), ("run", "append.before-sync@2"), ("run", "append.mid-line@2"),
        ("topup", "topup.after-purchase"), ("topup", "topup.before-record"), ("topup", "append.mid-line"),
        ("topup", "append.before-sync"), ("topup", "topup.after-record"), ("topup", "topup.after-finish"),
        ("collect", "topup.before-record"), ("collect", "topup.after-record"), ("collect", "collect.before-cursor"),
        ("merge", "merge.mid-write"), ("merge", "merge.before-sync"), ("refund", "refund.after-record"),
        ("refund", "append.mid-line"), ("refund", "refund.before-record"), ("reinstate", "refund.before-record"),
        ("reinstate", "refund.after-record"), ("reinstate", "append.mid-line"),
    ]

    @Test(.enabled(if: KillStage.isOn, KillStage.reason))
    func everyFaultPointOnce() async throws {
        var figures = Figures(suite: "crash at every step", test: #function)
        defer { figures.record() }
        // One store for all, the runs one after another (each collects everything it bought before the next).
        let store = try await StoreServer.start()
        let root = store.home.file("root.der")
        try store.saveRoot(to: root)
        for (index, (step, fault)) in CrashAtEveryStepTests.sweep.enumerated() {
            let run = try CrashRun(store: store, root: root, seed: UInt64(index + 1))
            figures.runs += 1
            do {
                try await run.execute(steps: 0, forced: (step, fault))
            } catch let failure as CrashRun.Failure {
                figures.failures += 1
                Issue.record("\(step) killed at \(fault): \(failure)")
            }
            figures.faults += run.kills
            figures.entriesChecked += run.entriesChecked
            #expect(run.kills >= 1, "\(step) never reached \(fault): \(run.log)")
        }
    }

    @Test(.enabled(if: KillStage.isOn, KillStage.reason))
    func seededRunsKilledAtRandomSteps() async throws {
        var figures = Figures(suite: "crash at every step", test: #function)
        defer { figures.record() }
        let store = try await StoreServer.start()
        let root = store.home.file("root.der")
        try store.saveRoot(to: root)
        for seed in Reliability.seeds("crash", fast: 6, long: 300) {
            var random = SeededRandom(seed: seed)
            let run = try CrashRun(store: store, root: root, seed: seed)
            figures.runs += 1
            do {
                try await run.execute(steps: Int.random(in: 3...(Reliability.isLong ? 10 : 5), using: &random))
            } catch let failure as CrashRun.Failure {
                figures.failures += 1
                figures.faults += run.kills
                Issue.record("\(failure)")
                return
            }
            figures.faults += run.kills
            figures.entriesChecked += run.entriesChecked
        }
    }
}

extension CrashAtEveryStepTests {
    /// Found by the long mode (a refund not taken back): the store's updates feed comes in pages of 50, and a collect
    /// must read them all, or a refund (or an approval) waits for some later collect.
    @Test func oneCollectReadsEveryPageOfTheStoreUpdates() async throws {
        let store = try await StoreServer.start()
        let scratch = try ScratchDirectory("pages", inMemory: true)
        let root = scratch.file("root.der")
        try store.saveRoot(to: root)
        let credit = try CreditRunner(dataDirectory: scratch.file("data"))
        try await credit.ok(["store", "use", "mockstore", "--url", store.url, "--root-certificate", root])
        // 60 purchases made outside the app (each an update), collected.
        var ids: [String] = []
        for _ in 0..<60 {
            let reply = try HTTPProbe.post(
                TestControls.buy.path(), json: #"{"productId":"ai.voicedebrief.app.credit.500"}"#, port: store.port)
            let object = try #require(
                (try? JSONSerialization.jsonObject(with: Data(reply.body))) as? [String: Any], "\(reply.text)")
            let id =
                (object["transactionId"] as? String)
                ?? (object["signedTransaction"] as? String).flatMap(transactionID(ofSigned:))
            ids.append(try #require(id, "no transaction id in \(reply.text)"))
        }
        try await credit.ok(["collect"])
        await #expect(try credit.balance() == 5_000_000 + 60 * 5_000_000)
        // Every one refunded: one collect takes every credit back.
        for id in ids {
            let reply = try HTTPProbe.post(
                TestControls.refund.path(.init(transactionId: id)), json: "{}", port: store.port)
            try #require(reply.status == 200, "refund \(id): \(reply.status) \(reply.text)")
        }
        try await credit.ok(["collect"])
        let reversals = try LedgerInspection(dataDirectory: credit.dataDirectory).entries.filter {
            $0.kind == .reversal
        }
        #expect(reversals.count == 60, "one collect took back \(reversals.count) of 60 refunds")
        await #expect(try credit.balance() == 5_000_000)
    }
}
