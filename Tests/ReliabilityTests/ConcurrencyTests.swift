import CreditLedger
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Concurrency: several real `credit` processes charging and topping up (simulated) one data directory at once,
/// starting from nothing (so they also race to make the keys and the ledger); several collecting the same purchases
/// from a real mock store at once; one killed (SIGKILL) while it holds the lock. Must hold: no interleaved bytes
/// (every line whole and readable), each device's sequence contiguous with no repeat, every acknowledged entry there
/// once, nothing else, the chain verifies, the balance is the model's; each purchase credited once; a lock holder's
/// death frees the lock at once, and unrelated opening and closing of the lock file does not free it early.
@Suite struct ConcurrencyTests {
    /// Runs `rounds` rounds of `workers` commands started together; returns what each acknowledged.
    func runRounds(_ credit: CreditRunner, workers: Int, rounds: Int, seed: UInt64) async throws -> (
        acked: [String: Int64], processes: Int
    ) {
        var random = SeededRandom(seed: seed)
        var acked: [String: Int64] = [:]
        var processes = 0
        let keys = ["send", "debrief", "cleanPassage", "createVault", "addRecipient", "glossaryWord"]
        for _ in 0..<rounds {
            var commands: [[String]] = []
            for _ in 0..<workers {
                commands.append(random.chance(0.2) ? ["topup", "--json"] : ["charge", random.pick(keys), "--json"])
            }
            let started = try commands.map { try credit.start($0) }
            for (command, child) in zip(commands, started) {
                let result = await child.wait(timeout: 120)
                processes += 1
                try #require(
                    result.succeeded,
                    "credit \(command.joined(separator: " ")) failed with others running: \(result); seed \(seed.seedText)"
                )
                let object = try #require(result.jsonObject(), "not JSON: \(result)")
                let id = try #require(object["id"] as? String)
                let amount = try #require((object["amount"] as? NSNumber)?.int64Value)
                #expect(acked[id] == nil, "\(id) acknowledged twice")
                acked[id] = amount
            }
        }
        return (acked, processes)
    }
}

extension ConcurrencyTests {
    @Test(.enabled(if: KillStage.isOn, KillStage.reason))
    func processesChargingAndToppingUpOneDataDirectoryAtOnce() async throws {
        var figures = Figures(suite: "concurrency", test: #function)
        defer { figures.record() }
        let workers = Reliability.isLong ? 8 : 4
        let rounds = Reliability.isLong ? 25 : 5
        for seed in Reliability.seeds("concurrency", fast: 1, long: 4, weight: 5) {
            let scratch = try ScratchDirectory("concurrent", inMemory: true)
            let credit = try CreditRunner(dataDirectory: scratch.file("data"))
            let (acked, processes) = try await runRounds(credit, workers: workers, rounds: rounds, seed: seed)
            figures.runs += 1
            figures.faults += processes
            let inspection = try LedgerInspection(dataDirectory: credit.dataDirectory)
            figures.entriesChecked += inspection.entries.count
            #expect(inspection.problems.isEmpty, "interleaved or out of sequence: \(inspection.problems)")
            #expect(inspection.files.count == 1, "one device, one file: \(inspection.files)")
            let ids = inspection.entries.map(\.id)
            #expect(Set(ids).count == ids.count, "an id written twice")
            #expect(
                Set(ids) == Set(acked.keys).union(["opening"]),
                "missing: \(Set(acked.keys).subtracting(ids)); extra: \(Set(ids).subtracting(acked.keys).subtracting(["opening"]))"
            )
            let model = 5_000_000 + acked.values.reduce(0, +)
            #expect(inspection.balance == model)
            await #expect(try credit.balance() == model)
            let verify = try await credit.ok(["verify", "--json"]).jsonObject()
            let clean = verify?["ok"] as? Bool == true
            #expect(clean, "verify after concurrent writers: \(verify ?? [:]); seed \(seed.seedText)")
            if !clean || !inspection.problems.isEmpty { figures.failures += 1 }
        }
    }

    @Test(.enabled(if: KillStage.isOn, KillStage.reason))
    func processesCollectingTheSamePurchasesAtOnceCreditEachOnce() async throws {
        var figures = Figures(suite: "concurrency", test: #function)
        defer { figures.record() }
        let store = try await StoreServer.start()
        let scratch = try ScratchDirectory("concurrent-collect", inMemory: true)
        let root = scratch.file("root.der")
        try store.saveRoot(to: root)
        let credit = try CreditRunner(dataDirectory: scratch.file("data"))
        try await credit.ok(["store", "use", "mockstore", "--url", store.url, "--root-certificate", root])
        // Three purchases the app never recorded, and two top-ups made while collectors run.
        for _ in 0..<3 { _ = try store.purchase() }
        let collectors = try (0..<4).map { _ in try credit.start(["collect", "--json"]) }
        let buyers = try (0..<2).map { _ in try credit.start(["topup", "--json"]) }
        for child in collectors + buyers {
            let result = await child.wait(timeout: 120)
            #expect(result.succeeded, "\(result)")
        }
        try await credit.ok(["collect"])
        let inspection = try LedgerInspection(dataDirectory: credit.dataDirectory)
        let references = inspection.entries.filter { $0.kind == .topup }.compactMap(\.reference)
        #expect(references.count == 5 && Set(references).count == 5, "five purchases, credited: \(references)")
        #expect(inspection.problems.isEmpty, "\(inspection.problems)")
        #expect(try store.unfinished().isEmpty)
        await #expect(try credit.balance() == 5_000_000 + 5 * 5_000_000)
        let verify = try await credit.ok(["verify", "--json"]).jsonObject()
        #expect(verify?["ok"] as? Bool == true, "\(verify ?? [:])")
        figures.runs = 1
        figures.faults = 6
        figures.entriesChecked = inspection.entries.count
    }

    /// Whether another process holds the lock on `path` (a non-blocking try from here, released at once).
    func lockIsHeld(_ path: String) -> Bool {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }

    @Test func aProcessKilledWhileHoldingTheLockDoesNotBlockTheNext() async throws {
        var figures = Figures(suite: "concurrency", test: #function)
        defer { figures.record() }
        let scratch = try ScratchDirectory("lock-holder", inMemory: true)
        let credit = try CreditRunner(dataDirectory: scratch.file("data"))
        try await credit.ok(["charge", "send"])
        let lock = credit.dataDirectory + "/ledger/.lock"
        // It stops (holding the lock) between writing its line and syncing it.
        let holder = try credit.start(["charge", "debrief"], fault: "append.before-sync:pause")
        // Paused at the point once its line is in the file (it takes and drops the lock on its way there).
        let file = try LedgerInspection(dataDirectory: credit.dataDirectory).files[0]
        func paused() -> Bool {
            String(decoding: FileManager.default.contents(atPath: file) ?? Data(), as: UTF8.self).contains(
                "\"debrief\"")
        }
        waitUntil(timeout: 60) { (paused() && lockIsHeld(lock)) || holder.hasExited }
        try #require(paused() && lockIsHeld(lock), "the paused process never held the lock")
        let waiter = try credit.start(["charge", "createVault", "--json"])
        pace(seconds: 0.5)
        #expect(!waiter.hasExited, "the second process did not wait for the lock")
        // Opening and closing the lock file elsewhere (here) does not release a flock.
        for _ in 0..<20 {
            let fd = open(lock, O_RDWR | O_CLOEXEC)
            if fd >= 0 { close(fd) }
        }
        pace(seconds: 0.2)
        #expect(!waiter.hasExited, "an unrelated close released the lock")
        #expect(lockIsHeld(lock))
        let killedAt = Date()
        holder.send(SIGKILL)
        let result = await waiter.wait(timeout: 30)
        #expect(result.succeeded, "\(result)")
        let exited = try #require(result.exitedAt)
        #expect(exited.timeIntervalSince(killedAt) < 10, "the lock was not freed when its holder died")
        let inspection = try LedgerInspection(dataDirectory: credit.dataDirectory)
        #expect(inspection.problems.isEmpty, "\(inspection.problems)")
        // The killed charge's line was written before it stopped: whole, and counted once if kept.
        #expect(inspection.entries.filter { $0.feature == "createVault" }.count == 1)
        #expect(inspection.entries.filter { $0.feature == "debrief" }.count <= 1)
        let verify = try await credit.ok(["verify", "--json"]).jsonObject()
        #expect(verify?["ok"] as? Bool == true, "\(verify ?? [:])")
        figures.runs = 1
        figures.faults = 1
        figures.entriesChecked = inspection.entries.count
    }
}
