import CreditLedger
import DurableFiles
import Foundation
import Testing

/// Power loss: the ledger writes through ``SimulatedDisk``, which keeps only what was synced. The power fails before
/// every file operation of a seeded script of opens, charges, declines, batches, top-ups, reopens (one after a dead
/// process left a torn tail) and merges; what was never synced is lost, half-written or zero-filled. Must hold on
/// every reopen: every acknowledged entry is there unchanged; beyond them only entries of the operation in flight
/// (a batch only as a prefix); every line whole and every sequence contiguous; the chain and the head verify; the
/// balance is the sum over distinct ids; and the next append continues a chain that verifies.
@Suite struct PowerLossTests {
    /// The head is replaced after each append without a directory sync (the entry itself is durable): a power cut
    /// may take the renames and leave an older head. That head is behind the file and matches the entry it signed,
    /// so it is never taken for tampering; the next open brings it up and makes it durable.
    @Test func aHeadWhoseRenameThePowerTookIsBroughtUpNotTakenForTampering() throws {
        let scratch = try ScratchDirectory("power-head", inMemory: true)
        let directory = scratch.path + "/data"
        try SharedKeys.install(in: directory)
        let disk = SimulatedDisk(root: directory)
        let clock = FixedClock(Timestamp(milliseconds: 1_795_953_600_000), step: 1000)
        var ledger: Ledger? = try Ledger.openSigned(
            directory: directory, clock: clock, ids: SequentialIDs(prefix: "dev"), fileSystem: disk)
        for index in 1...3 { try ledger!.append(charge("c-\(index)", pence: 1)) }
        let device = ledger!.device
        #expect(try SignedHead.read(in: directory, device: device)?.sequence == 4)
        ledger = nil
        disk.powerFail(unsynced: .lost)
        let lagging = try #require(try SignedHead.read(in: directory, device: device))
        #expect(lagging.sequence < 4, "no rename was lost: the test shows nothing")
        let reopened = try Ledger.openSigned(directory: directory, clock: clock, ids: SequentialIDs(prefix: "dev"))
        #expect(reopened.notices.isEmpty, "\(reopened.notices)")
        #expect(reopened.balance.rawValue == 5_000_000 - 30_000, "an acknowledged entry was lost")
        #expect(try SignedHead.read(in: directory, device: device)?.sequence == 4)
        #expect(try reopened.verify(receiptCheck: nil).isClean)
    }
}

/// One step of a power-loss script: the ids it writes, in order, and how.
struct ScriptStep {
    var name: String
    var writes: [String]
    var isBatch = false
    var run: (ScriptWorld) throws -> Void
}

/// What a script runs against: a data directory, the file layer, and the ledger open on it.
final class ScriptWorld {
    let directory: String
    let fileSystem: any FileSystem
    let clock = FixedClock(Timestamp(milliseconds: 1_795_953_600_000), step: 1000)
    let ids = SequentialIDs(prefix: "dev")
    var ledger: Ledger?
    /// Another device's ledger file, to merge.
    let otherFile: String

    init(directory: String, fileSystem: any FileSystem, otherFile: String) {
        self.directory = directory
        self.fileSystem = fileSystem
        self.otherFile = otherFile
    }

    func open() throws {
        ledger = nil
        ledger = try Ledger.openSigned(directory: directory, clock: clock, ids: ids, fileSystem: fileSystem)
    }

    var current: Ledger {
        get throws { try #require(ledger, "the script uses the ledger before opening it") }
    }
}

func charge(_ id: String, pence: Int64, feature: String = "debrief") -> EntryDraft {
    EntryDraft(id: id, kind: .charge, feature: feature, quantity: 1, amount: MicroCredits(-pence * 10_000))
}

func simulatedTopUp(_ reference: String) -> EntryDraft {
    EntryDraft(
        id: EntryDraft.topUpID(store: "simulated", reference: reference), kind: .topup, amount: MicroCredits(5_000_000),
        text: "Top-up (simulated, no money taken)", reference: reference, product: "ai.voicedebrief.app.credit.500")
}

/// Keys made once and copied into each run's data directory (making a P-256 key per run would dominate).
enum SharedKeys {
    static let template: String = {
        let directory = NSTemporaryDirectory() + "/credit-reliability-keys-\(getpid())"
        if !FileManager.default.fileExists(atPath: directory + "/keys/ledger.key") {
            _ = try? LedgerKeys.loadOrCreate(in: directory)
        }
        atexit {
            try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "/credit-reliability-keys-\(getpid())")
        }
        return directory
    }()

    /// Copies the keys into `dataDirectory` (made if missing).
    static func install(in dataDirectory: String) throws {
        try FileManager.default.createDirectory(atPath: dataDirectory + "/keys", withIntermediateDirectories: true)
        for name in ["ledger.key", "head-signing.pem", "head-public.pem"] {
            let target = dataDirectory + "/keys/" + name
            try? FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: template + "/keys/" + name, toPath: target)
        }
    }
}

/// The other device's file: an opening and two charges, signed with the shared keys.
enum OtherDevice {
    static let file: String = {
        let directory = NSTemporaryDirectory() + "/credit-reliability-other-\(getpid())"
        try? FileManager.default.removeItem(atPath: directory)
        atexit {
            try? FileManager.default.removeItem(
                atPath: NSTemporaryDirectory() + "/credit-reliability-other-\(getpid())")
        }
        try? SharedKeys.install(in: directory)
        let ledger = try? Ledger.openSigned(
            directory: directory, clock: FixedClock(Timestamp(milliseconds: 1_795_953_000_000), step: 1000),
            ids: SequentialIDs(prefix: "other"))
        _ = try? ledger?.append(charge("o-1", pence: 7, feature: "send"))
        _ = try? ledger?.append(charge("o-2", pence: 2, feature: "transcript"))
        return ledger.map { $0.path(forDevice: $0.device) } ?? ""
    }()
    static let ids = ["opening", "o-1", "o-2"]
}

/// A seeded script: an open, then a mix of every kind of step.
func makeScript(seed: UInt64) -> [ScriptStep] {
    var random = SeededRandom(seed: seed)
    var steps: [ScriptStep] = [ScriptStep(name: "open a new ledger", writes: ["opening"]) { try $0.open() }]
    var charges: [String] = []
    var declined: Set<String> = []
    var counter = 0
    var merged = false
    let length = Int.random(in: 6...10, using: &random)
    for _ in 0..<length {
        counter += 1
        let n = counter
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1, 2:
            let id = "c-\(n)"
            let pence = Int64.random(in: 1...90, using: &random)
            charges.append(id)
            steps.append(
                ScriptStep(name: "charge \(id)", writes: [id]) { try $0.current.append(charge(id, pence: pence)) })
        case 3 where charges.contains { !declined.contains($0) }:
            let target = charges.filter { !declined.contains($0) }.randomElement(using: &random)!
            declined.insert(target)
            steps.append(
                ScriptStep(name: "decline \(target)", writes: [EntryDraft.refundID(forCharge: target)]) {
                    try $0.current.decline(target, reason: try DeclineReason(key: "not-usable", text: nil))
                })
        case 4:
            let ids = (0..<Int.random(in: 2...3, using: &random)).map { "b-\(n)-\($0)" }
            charges.append(contentsOf: ids)
            steps.append(
                ScriptStep(name: "batch \(ids.joined(separator: ","))", writes: ids, isBatch: true) {
                    try $0.current.appendBatch(ids.map { charge($0, pence: 3) })
                })
        case 5:
            let reference = "SIM-\(n)"
            steps.append(
                ScriptStep(
                    name: "top-up \(reference)", writes: [EntryDraft.topUpID(store: "simulated", reference: reference)]
                ) {
                    try $0.current.append(simulatedTopUp(reference))
                })
        case 6:
            let id = "c-\(n)"
            charges.append(id)
            steps.append(
                ScriptStep(name: "reopen, charge \(id)", writes: [id]) { world in
                    try world.open()
                    try world.current.append(charge(id, pence: 4))
                })
        case 7:
            let id = "c-\(n)"
            charges.append(id)
            steps.append(
                ScriptStep(name: "a dead process's torn line, reopen, charge \(id)", writes: [id]) { world in
                    // Bytes a killed process left in the page cache: never synced, so the disk layer does not know
                    // them.
                    let path = try world.current.path(forDevice: world.current.device)
                    let handle = try #require(FileHandle(forWritingAtPath: path))
                    try handle.seekToEnd()
                    try handle.write(contentsOf: Data(#"{"id":"torn","device":"dev-00"#.utf8))
                    try handle.close()
                    try world.open()
                    try world.current.append(charge(id, pence: 5))
                })
        case 8 where !merged:
            merged = true
            steps.append(
                ScriptStep(name: "merge another device", writes: OtherDevice.ids) { world in
                    let report = try AccountSync(world.current).merge(files: [world.otherFile])
                    try #require(report.problems.isEmpty, "merge: \(report.problems)")
                })
        default:
            let id = "c-\(n)"
            charges.append(id)
            steps.append(ScriptStep(name: "charge \(id)", writes: [id]) { try $0.current.append(charge(id, pence: 1)) })
        }
    }
    return steps
}

/// Runs `steps` on a fresh data directory through `disk` (the process killed and the power failing where it says);
/// returns the ids acknowledged (by content) and the steps whose writes may or may not be there: the one killed
/// (the next step opens the ledger again, as the next process would) and the one in flight when the power failed.
func runScript(_ steps: [ScriptStep], in directory: String, disk: SimulatedDisk) throws -> (
    acked: [String: String], inFlight: ScriptStep?
) {
    let world = ScriptWorld(directory: directory, fileSystem: disk, otherFile: OtherDevice.file)
    var acked: [String: String] = [:]
    var maybe: [String] = []
    func inFlight(_ step: ScriptStep?) -> ScriptStep? {
        guard let step else { return maybe.isEmpty ? nil : ScriptStep(name: "a killed step", writes: maybe) { _ in } }
        return maybe.isEmpty
            ? step : ScriptStep(name: step.name + " (after a killed step)", writes: maybe + step.writes) { _ in }
    }
    for step in steps {
        do {
            if world.ledger == nil && step.writes != ["opening"] { try world.open() }
            try step.run(world)
        } catch  where disk.isDead {
            world.ledger = nil
            return (acked, inFlight(step))
        } catch  where disk.processIsDead {
            world.ledger = nil
            disk.restartProcess()
            maybe += step.writes
            continue
        } catch LedgerError.unknownEntry(let id) where maybe.contains(id) {
            continue  // declining a charge whose writing was killed before it reached the file
        }
        let ledger = try world.current
        for id in step.writes {
            let entry = try #require(ledger.entry(id: id), "step \(step.name) returned but \(id) is not in the ledger")
            acked[id] = entry.essence
        }
    }
    world.ledger = nil
    return (acked, inFlight(nil))
}

extension PowerLossTests {
    @Test func everyAcknowledgedEntrySurvivesAPowerLossAtEveryFileOperation() throws {
        var figures = Figures(suite: "power loss", test: #function)
        defer { figures.record() }
        let seeds = Reliability.seeds("power-loss", fast: 1, long: 40, weight: 10)
        for seed in seeds {
            let steps = makeScript(seed: seed)
            // A dry run counts the operations.
            let dry = try ScratchDirectory("power-dry", inMemory: true)
            try SharedKeys.install(in: dry.path + "/data")
            let counter = SimulatedDisk(root: dry.path + "/data")
            _ = try runScript(steps, in: dry.path + "/data", disk: counter)
            let total = counter.operations
            var random = SeededRandom(seed: seed)
            for point in 0...total {
                let modes: [SimulatedDisk.Unsynced] = [
                    .lost, .partlyWritten(fraction: Double.random(in: 0.05..<1, using: &random)), .zeroFilled,
                ]
                for (number, mode) in modes.enumerated() {
                    figures.runs += 1
                    figures.faults += 1
                    // Two runs in three: a process is also killed (SIGKILL) somewhere before the power fails.
                    let killAt = number > 0 && point > 1 ? Int.random(in: 0..<point, using: &random) : nil
                    let scratch = try ScratchDirectory("power", inMemory: true)
                    let directory = scratch.path + "/data"
                    try SharedKeys.install(in: directory)
                    let disk = SimulatedDisk(root: directory)
                    disk.powerLossAt = point
                    disk.killAt = killAt
                    let (acked, inFlight) = try runScript(steps, in: directory, disk: disk)
                    disk.powerFail(unsynced: mode)
                    if killAt != nil { figures.faults += 1 }
                    let context = """
                        \(killAt.map { "process killed before operation \($0), then " } ?? "")power lost before operation \(point) of \(total) (\(mode)), during \(inFlight?.name ?? "nothing: every step was done"); \
                        \(Reliability.replayHint(seed: seed, test: "everyAcknowledgedEntrySurvivesAPowerLossAtEveryFileOperation"))
                        script: \(steps.map(\.name).joined(separator: "; "))
                        operations: \(disk.trace.suffix(6).joined(separator: " | "))
                        """
                    let checked = checkRecovered(
                        directory: directory, acked: acked, inFlight: inFlight, context: context)
                    figures.entriesChecked += checked
                    if checked < 0 {
                        figures.failures += 1
                        return  // one clear failure, with its seed, is worth more than hundreds of echoes
                    }
                }
            }
        }
    }
}

/// Reopens `directory` on the real file system and checks it against what was acknowledged; returns the entries
/// checked, or -1 after recording a failure.
func checkRecovered(
    directory: String, acked: [String: String], inFlight: ScriptStep?, context: String,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Int {
    func fail(_ message: String) -> Int {
        Issue.record("\(message)\n\(context)\nfiles: \(listing(directory))", sourceLocation: sourceLocation)
        return -1
    }
    let ledger: Ledger
    do {
        ledger = try Ledger.openSigned(
            directory: directory, clock: FixedClock(Timestamp(milliseconds: 1_796_000_000_000), step: 1000))
    } catch {
        return fail("the ledger cannot be opened after the power loss: \(error)")
    }
    guard let inspection = try? LedgerInspection(dataDirectory: directory) else {
        return fail("cannot read the ledger files")
    }
    if !inspection.problems.isEmpty { return fail("the files are damaged: \(inspection.problems)") }
    let ids = inspection.ids
    for (id, essence) in acked {
        guard let entry = inspection.byID[id] else { return fail("acknowledged entry \(id) is gone") }
        if entry.essence != essence { return fail("acknowledged entry \(id) changed: \(essence) -> \(entry.essence)") }
    }
    let allowed = Set(acked.keys).union(inFlight?.writes ?? [])
    let extra = ids.subtracting(allowed)
    if !extra.isEmpty { return fail("entries nobody wrote: \(extra.sorted())") }
    if let inFlight, inFlight.isBatch {
        let present = inFlight.writes.map { ids.contains($0) && acked[$0] == nil }
        if let firstMissing = present.firstIndex(of: false), present[firstMissing...].contains(true) {
            return fail("only part of batch \(inFlight.writes) is there, and not a prefix: \(present)")
        }
    }
    if ledger.balance.rawValue != inspection.balance {
        return fail("the ledger says \(ledger.balance.rawValue), its files sum to \(inspection.balance)")
    }
    // A head the power cut left behind (its rename not yet on disk) is one the file bears out: never taken for
    // tampering, and brought up.
    if let problem = ledger.notices.first(where: { if case .headNotKept = $0 { true } else { false } }) {
        return fail("after a power loss the head is taken for tampering: \(problem)")
    }
    do {
        let report = try ledger.verify(receiptCheck: nil)
        if !report.isClean { return fail("verify: \(report.problems.map(\.description))") }
        // The next append continues the chain.
        let next = try ledger.append(charge("after-recovery", pence: 1)).entry
        let again = try ledger.verify(receiptCheck: nil)
        if !again.isClean { return fail("verify after the next append: \(again.problems.map(\.description))") }
        if !ledger.notices.isEmpty, case .followUpFailed = ledger.notices.last! {
            return fail("the next append could not keep the head: \(ledger.notices.last!)")
        }
        let head = try SignedHead.read(in: directory, device: ledger.device)
        if head?.sequence != next.sequence {
            return fail("the head is at \(head?.sequence ?? 0), not #\(next.sequence)")
        }
    } catch {
        return fail("after recovery: \(error)")
    }
    return inspection.entries.count
}

/// Every file under `directory` with its size, for failure messages.
func listing(_ directory: String) -> String {
    let names = (FileManager.default.enumerator(atPath: directory)?.allObjects as? [String]) ?? []
    return names.sorted().map { name in
        let size = (try? FileManager.default.attributesOfItem(atPath: directory + "/" + name)[.size] as? Int) ?? 0
        return "\(name) (\(size))"
    }.joined(separator: ", ")
}
