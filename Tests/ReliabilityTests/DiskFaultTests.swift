import CreditLedger
import DurableFiles
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Disk full and I/O errors, through ``SimulatedDisk``: `ENOSPC` on a write, a short write then `ENOSPC`, `EIO` on
/// `fdatasync`, on the cut-back after a failed write, on a directory sync, on a rename. Must hold: the error reaches
/// the caller (with the system's words for it), nothing is acknowledged that was not written, nothing written and
/// synced is reported as failed (a head not kept up after it is a notice), no partial line is
/// left for the next append to land after, the in-memory state is re-derived after a failed sync (nothing counted
/// twice, nothing counted that the file does not hold), and once the disk is healthy again the next append gives
/// a chain that verifies. Plus the real `credit` binary against a real file-size limit (`EFBIG` after a short
/// write): exit 1 with the reason, the file byte for byte as before.
@Suite struct DiskFaultTests {
    final class World {
        let scratch: ScratchDirectory
        let directory: String
        let disk: SimulatedDisk
        let ledger: Ledger

        init() throws {
            scratch = try ScratchDirectory("disk-fault", inMemory: true)
            directory = scratch.path + "/data"
            try SharedKeys.install(in: directory)
            disk = SimulatedDisk(root: directory)
            ledger = try Ledger.openSigned(
                directory: directory, clock: FixedClock(Timestamp(milliseconds: 1_795_953_600_000), step: 1000),
                ids: SequentialIDs(prefix: "dev"), fileSystem: disk)
            try ledger.append(charge("c-1", pence: 10))
            try ledger.append(charge("c-2", pence: 20))
        }

        var file: String { ledger.path(forDevice: ledger.device) }
        var bytes: [UInt8] { Array(FileManager.default.contents(atPath: file) ?? Data()) }

        /// Checks the in-memory state against the file, and the file against itself.
        func expectConsistent(_ context: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let inspection = try LedgerInspection(dataDirectory: directory)
            #expect(inspection.problems.isEmpty, "\(context): \(inspection.problems)", sourceLocation: sourceLocation)
            #expect(
                ledger.balance.rawValue == inspection.balance,
                "\(context): in memory \(ledger.balance.rawValue), on disk \(inspection.balance)",
                sourceLocation: sourceLocation)
            let places = ledger.entries.map { "\($0.device)#\($0.sequence)" }
            #expect(
                Set(places).count == places.count, "\(context): entries counted twice in memory: \(places)",
                sourceLocation: sourceLocation)
            #expect(
                places.count == inspection.entries.count,
                "\(context): \(places.count) entries in memory, \(inspection.entries.count) on disk",
                sourceLocation: sourceLocation)
        }

        func expectVerifies(_ context: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let fresh = try Ledger.openSigned(directory: directory)
            let report = try fresh.verify(receiptCheck: nil)
            #expect(report.isClean, "\(context): \(report.problems.map(\.description))", sourceLocation: sourceLocation)
        }
    }

    /// Expects `body` to throw an I/O error with `code`, naming it in words.
    func expectIOError(
        _ code: Int32, _ context: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("\(context): no error reached the caller", sourceLocation: sourceLocation)
        } catch let error as FileError {
            #expect(error.errno == code, "\(context): errno \(error.errno)", sourceLocation: sourceLocation)
            #expect(
                error.description.contains(String(cString: strerror(code))), "\(context): \(error.description)",
                sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(context): \(error)", sourceLocation: sourceLocation)
        }
    }
}

extension DiskFaultTests {
    @Test(arguments: [
        ("ENOSPC on the write", 0), ("a short write then ENOSPC", 1), ("two short writes then ENOSPC", 2),
    ])
    func aFullDiskLeavesNoPartialLineAndTheErrorReachesTheCaller(_ name: String, _ shortWrites: Int) throws {
        let world = try World()
        let before = world.bytes
        var writes = 0
        world.disk.inject = { call in
            guard call.operation == .write, call.path == world.file else { return .proceed }
            writes += 1
            return writes <= shortWrites ? .writeOnly(max(1, call.count / 3)) : .fail(ENOSPC)
        }
        expectIOError(ENOSPC, name) { try world.ledger.append(charge("c-3", pence: 30)) }
        #expect(world.bytes == before, "\(name): a partial line was left")
        #expect(world.ledger.entry(id: "c-3") == nil, "\(name): acknowledged in memory without being written")
        try world.expectConsistent(name)
        // Space frees up: the next append continues the chain.
        world.disk.inject = nil
        try world.ledger.append(charge("c-3", pence: 30))
        try world.expectConsistent(name + ", then space freed")
        try world.expectVerifies(name + ", then space freed")
    }

    @Test func shortWritesAloneAreCompletedIntoOneWholeLine() throws {
        let world = try World()
        world.disk.inject = { call in call.operation == .write && call.count > 1 ? .writeOnly(call.count / 2) : .proceed
        }
        try world.ledger.append(charge("c-3", pence: 30))
        world.disk.inject = nil
        try world.expectConsistent("short writes")
        try world.expectVerifies("short writes")
        #expect(world.ledger.entry(id: "c-3") != nil)
    }

    @Test func anFsyncErrorIsNotAcknowledgedAndTheStateIsReadAgain() throws {
        let world = try World()
        let before = world.bytes
        world.disk.inject = { call in call.operation == .syncData ? .fail(EIO) : .proceed }
        expectIOError(EIO, "EIO on fdatasync") { try world.ledger.append(simulatedTopUp("SIM-1")) }
        world.disk.inject = nil
        // The entry was never acknowledged: it must not count, not in memory and not from the page cache.
        let id = EntryDraft.topUpID(store: "simulated", reference: "SIM-1")
        #expect(world.ledger.entry(id: id) == nil, "an unacknowledged top-up counts")
        #expect(world.bytes == before, "the unacknowledged line is still in the file")
        try world.expectConsistent("after EIO on fdatasync")
        // The same top-up delivered again is credited exactly once.
        let outcome = try world.ledger.append(simulatedTopUp("SIM-1"))
        #expect(outcome == .appended(outcome.entry), "the redelivery was not written: \(outcome)")
        #expect(try world.ledger.append(simulatedTopUp("SIM-1")) == .alreadyRecorded(outcome.entry))
        try world.expectConsistent("after the redelivery")
        let topUps = try LedgerInspection(dataDirectory: world.directory).entries.filter { $0.id == id }
        #expect(topUps.count == 1, "credited \(topUps.count) times")
        try world.expectVerifies("after EIO on fdatasync")
        // And a power loss now keeps exactly what was acknowledged.
        world.disk.powerFail(unsynced: .lost)
        let inspection = try LedgerInspection(dataDirectory: world.directory)
        #expect(inspection.ids == ["opening", "c-1", "c-2", id])
    }

    @Test func aFailedCutBackLeavesNothingForTheNextAppendToLandAfter() throws {
        let world = try World()
        world.disk.inject = { call in
            switch call.operation {
            case .write where call.path == world.file:
                return call.count > 10 ? .writeOnly(call.count / 2) : .fail(ENOSPC)
            case .truncate: return .fail(EIO)
            default: return .proceed
            }
        }
        #expect(throws: FileError.self) { try world.ledger.append(charge("c-3", pence: 30)) }
        world.disk.inject = nil
        // Half a line is on disk. The next append must set it aside first, never write after it.
        try world.ledger.append(charge("c-4", pence: 40))
        try world.expectConsistent("after a failed cut-back")
        #expect(world.ledger.entry(id: "c-3") == nil)
        #expect(world.ledger.notices.contains { if case .tornTailMovedAside = $0 { true } else { false } })
        try world.expectVerifies("after a failed cut-back")
    }

    @Test(arguments: [SimulatedDisk.Operation.syncDirectory, .rename, .sync])
    func aFailureWhileCreatingALedgerLeavesOneThatOpensNextTime(_ operation: SimulatedDisk.Operation) throws {
        let scratch = try ScratchDirectory("disk-fault-create", inMemory: true)
        let directory = scratch.path + "/data"
        try SharedKeys.install(in: directory)
        let disk = SimulatedDisk(root: directory)
        var failed = false
        disk.inject = { call in
            guard call.operation == operation, !failed else { return .proceed }
            failed = true
            return .fail(EIO)
        }
        expectIOError(EIO, "EIO on \(operation) while creating") {
            _ = try Ledger.openSigned(directory: directory, fileSystem: disk)
        }
        disk.inject = nil
        // After a power loss too: what is on disk must open, as a whole new ledger or the one begun.
        disk.powerFail(unsynced: .lost)
        let ledger = try Ledger.openSigned(directory: directory)
        #expect(ledger.entry(id: "opening") != nil)
        try ledger.append(charge("c-1", pence: 1))
        let report = try ledger.verify(receiptCheck: nil)
        #expect(report.isClean, "\(operation): \(report.problems.map(\.description))")
    }

    @Test func aFullDiskWhileSettingATornTailAsideChangesNothing() throws {
        let world = try World()
        let whole = world.bytes
        let handle = try #require(FileHandle(forWritingAtPath: world.file))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"id":"half"#.utf8))
        try handle.close()
        let torn = world.bytes
        world.disk.inject = { call in
            call.operation == .write && call.path.contains("/torn/") ? .fail(ENOSPC) : .proceed
        }
        expectIOError(ENOSPC, "ENOSPC saving a torn tail") { try world.ledger.append(charge("c-3", pence: 1)) }
        #expect(world.bytes == torn, "the tail was cut without being saved")
        world.disk.inject = nil
        try world.ledger.append(charge("c-3", pence: 1))
        #expect(Array(world.bytes.prefix(whole.count)) == whole)
        try world.expectConsistent("after the torn tail was set aside")
        try world.expectVerifies("after the torn tail was set aside")
    }

    @Test func aFailedHeadWriteDoesNotFailTheAppendAndTheHeadCatchesUpOnTheNextOpen() throws {
        let world = try World()
        var told: [LedgerNotice] = []
        world.ledger.onNotice = { told.append($0) }
        let headPath = SignedHead.path(in: world.directory, device: world.ledger.device)
        let headBefore = FileManager.default.contents(atPath: headPath)
        world.disk.inject = { call in
            call.operation == .write && call.path.contains("/heads/") ? .fail(ENOSPC) : .proceed
        }
        // The entry is written and synced before the head: the append succeeded, and says so. Reporting it as failed
        // would have a caller retry a charge that is already recorded, and charge it twice.
        let outcome = try world.ledger.append(charge("c-3", pence: 1))
        guard case .appended(let entry) = outcome else {
            Issue.record("not appended: \(outcome)")
            return
        }
        #expect(world.ledger.entry(id: "c-3") == entry)
        #expect(told.count == 1, "told \(told)")
        if case .followUpFailed(let id, let reason)? = told.first {
            #expect(id == "c-3")
            #expect(reason.contains("signed head could not be updated"), "\(reason)")
            #expect(reason.contains(String(cString: strerror(ENOSPC))), "the system's words are missing: \(reason)")
        } else {
            Issue.record("not a follow-up failure: \(told)")
        }
        #expect(world.ledger.notices.last == told.first)
        #expect(
            FileManager.default.contents(atPath: headPath) == headBefore, "the head changed although its write failed")
        world.disk.inject = nil
        // Behind by one, which verify notes without calling it a problem; a new open brings the head up.
        let behind = try LedgerVerifier(
            macKey: try LedgerKeys.load(from: world.directory).macKey, headPublicKey: nil, receiptCheck: nil
        ).verify(
            files: [world.file],
            heads: [
                world.ledger.device: try #require(try SignedHead.read(in: world.directory, device: world.ledger.device))
            ])
        #expect(behind.isClean, "\(behind.problems.map(\.description))")
        #expect(behind.notes.contains { $0.contains("behind") }, "\(behind.notes)")
        try world.expectConsistent("after a failed head write")
        try world.expectVerifies("after a failed head write")
        let head = try #require(try SignedHead.read(in: world.directory, device: world.ledger.device))
        #expect(head.sequence == entry.sequence, "the next open did not bring the head up")
    }

    /// Seeded campaigns: a random script, one random fault (ENOSPC, EIO, a short write then ENOSPC) on a random file
    /// operation, the script going on after it with the disk healthy again.
    @Test func seededFaultCampaigns() throws {
        var figures = Figures(suite: "disk full and I/O errors", test: #function)
        defer { figures.record() }
        for seed in Reliability.seeds("disk-faults", fast: 60, long: 1500) {
            var random = SeededRandom(seed: seed)
            let steps = makeScript(seed: seed)
            let dry = try ScratchDirectory("fault-dry", inMemory: true)
            try SharedKeys.install(in: dry.path + "/data")
            let counter = SimulatedDisk(root: dry.path + "/data")
            _ = try runScript(steps, in: dry.path + "/data", disk: counter)
            let target = Int.random(in: 0..<counter.operations, using: &random)
            let code: Int32 = random.pick([ENOSPC, EIO, ENOSPC])
            let shortFirst = random.chance(0.5)

            let scratch = try ScratchDirectory("fault", inMemory: true)
            let directory = scratch.path + "/data"
            try SharedKeys.install(in: directory)
            let disk = SimulatedDisk(root: directory)
            // 0: waiting; 1: a write was cut short, the next write fails; 2: done.
            var state = 0
            disk.inject = { call in
                switch state {
                case 0 where call.index == target:
                    if call.operation == .write && shortFirst && call.count > 1 {
                        state = 1
                        return .writeOnly(call.count / 2)
                    }
                    state = 2
                    return .fail(code)
                case 1 where call.operation == .write:
                    state = 2
                    return .fail(code)
                default:
                    return .proceed
                }
            }
            let world = ScriptWorld(directory: directory, fileSystem: disk, otherFile: OtherDevice.file)
            var acked: [String: String] = [:]
            var failed: Set<String> = []
            var failure: String?
            let context = {
                "fault \(code == EIO ? "EIO" : "ENOSPC")\(shortFirst ? " after a short write" : "") at operation \(target) (\(disk.trace.count > target ? disk.trace[target] : "?")); \(Reliability.replayHint(seed: seed, test: "seededFaultCampaigns"))\nscript: \(steps.map(\.name).joined(separator: "; "))"
            }
            for step in steps {
                do {
                    if world.ledger == nil && step.writes != ["opening"] { try world.open() }
                    try step.run(world)
                    let ledger = try world.current
                    for id in step.writes {
                        guard let entry = ledger.entry(id: id) else {
                            failure = "step \(step.name) returned but \(id) is not in the ledger"
                            break
                        }
                        acked[id] = entry.essence
                    }
                } catch is FileError {
                    // The fault itself.
                    failed.formUnion(step.writes)
                } catch let error as LedgerError {
                    // A step that needed what the fault stopped (declining a charge never made).
                    switch error {
                    case .unknownEntry: failed.formUnion(step.writes)
                    case .invalid(let text) where text.contains("no ledger file"): failed.formUnion(step.writes)
                    default: failure = "step \(step.name): \(error)"
                    }
                } catch {
                    failure = "step \(step.name): \(error)"
                }
                if failure != nil { break }
            }
            figures.runs += 1
            figures.faults += disk.injected
            if let failure {
                Issue.record("\(failure); \(context())")
                figures.failures += 1
                return
            }
            // What this process holds in memory, then what a new process reads.
            if let ledger = world.ledger {
                let inspection = try LedgerInspection(dataDirectory: directory)
                if ledger.balance.rawValue != inspection.balance || ledger.entries.count != inspection.entries.count {
                    Issue.record(
                        "in memory: balance \(ledger.balance.rawValue), \(ledger.entries.count) entries; on disk: \(inspection.balance), \(inspection.entries.count); \(context())"
                    )
                    figures.failures += 1
                    return
                }
            }
            world.ledger = nil
            let checked = checkRecovered(
                directory: directory, acked: acked,
                inFlight: ScriptStep(name: "the failed steps", writes: Array(failed)) { _ in }, context: context())
            if checked < 0 {
                figures.failures += 1
                return
            }
            figures.entriesChecked += checked
        }
    }

    @Test func theRealBinaryAtAFileSizeLimitFailsCleanlyAndCarriesOnAfter() async throws {
        // A real limit, not a simulated one: RLIMIT_FSIZE makes the kernel cut the append short, then refuse it
        // (EFBIG), as a full disk would. SIGXFSZ is ignored so the write returns the error.
        let scratch = try ScratchDirectory("fsize")
        let data = scratch.file("data")
        let credit = try CreditRunner(dataDirectory: data)
        try await credit.ok(["charge", "send"])
        let device = try String(contentsOfFile: data + "/device", encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let file = data + "/ledger/" + device + ".jsonl"
        // The kernel's limit counts 512-byte blocks: charge until the next block boundary is less than a line away.
        var before = Array(try #require(FileManager.default.contents(atPath: file)))
        while !(24..<300).contains(512 - before.count % 512) {
            try await credit.ok(["charge", "send"])
            before = Array(try #require(FileManager.default.contents(atPath: file)))
        }
        let balance = try await credit.balance()
        let blocks = before.count / 512 + 1
        let script = "trap '' XFSZ; ulimit -f \(blocks); exec \"$0\" \"$@\""
        let shell = try ChildProcess(
            "/bin/sh", ["-c", script, credit.binary, "--data-dir", data, "charge", "debrief"],
            environment: credit.environment(fault: nil))
        let result = await shell.wait(timeout: 60)
        #expect(result.status == 1 && !result.signaled, "\(result)")
        #expect(
            result.stderr.lowercased().contains("file too large"),
            "the reason does not reach the user: \(result.stderr)")
        #expect(Array(FileManager.default.contents(atPath: file) ?? Data()) == before, "a partial line was left")
        await #expect(try credit.balance() == balance)
        try await credit.ok(["charge", "debrief"])
        let verify = try await credit.ok(["verify", "--json"]).jsonObject()
        #expect(verify?["ok"] as? Bool == true, "\(verify ?? [:])")
        #expect(LedgerInspection(bytes: Array(FileManager.default.contents(atPath: file) ?? Data())).problems.isEmpty)
    }
}
