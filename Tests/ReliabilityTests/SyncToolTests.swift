import Foundation
import TestSupport
import Testing

/// Issue 28: three devices of one account kept in step by `credit sync` through a folder, while a simulated sync
/// tool copies the folder's files between the devices' own copies of it at random moments: sometimes cut short
/// (and finished later), sometimes as a conflict copy, sometimes not there for a moment. After the last full copy
/// and a final sync, every device shows the same balance and entries, each entry once, and `verify` is clean.
@Suite(.serialized) struct SyncToolTests {
    /// One device: its data directory and its own copy of the synced folder (as on its own machine).
    private struct Device {
        let name: String
        let credit: CreditRunner
        let folder: String
        var ownCharges: [String] = []
    }

    /// What one run did.
    private struct Tally {
        var rounds = 0
        var tornCopies = 0
        var conflictCopies = 0
        var folderGone = 0
        var topUps = 0
        var declines = 0
        var syncs = 0
    }

    /// A copy the tool began and has not finished: the whole bytes, and where they go.
    private struct Pending {
        let bytes: Data
        let target: String
    }

    @Test func threeDevicesConvergeThroughASimulatedSyncTool() async throws {
        var figures = Figures(suite: "sync tool", test: "threeDevicesConvergeThroughASimulatedSyncTool")
        defer { figures.record() }
        let store = try await StoreServer.start()
        for seed in Reliability.seeds("sync-tool", fast: 2, long: 40) {
            var random = SeededRandom(seed: seed)
            let scratch = try ScratchDirectory("sync-tool", inMemory: true)
            let (tally, entries, converged) = try await run(&random, store: store, in: scratch)
            figures.runs += 1
            figures.faults += tally.tornCopies + tally.conflictCopies + tally.folderGone
            figures.entriesChecked += entries
            if !converged { figures.failures += 1 }
            Swift.print(
                "sync tool seed \(seed.seedText): \(tally.rounds) rounds, \(tally.syncs) syncs, \(entries) entries, "
                    + "\(tally.tornCopies) torn copies, \(tally.conflictCopies) conflict copies, "
                    + "\(tally.folderGone) folders gone for a moment, \(tally.topUps) top-ups, "
                    + "\(tally.declines) declines: \(converged ? "converged" : "did NOT converge")")
        }
    }

    /// One seeded run; returns what it did and how many entries every device ended with.
    private func run(_ random: inout SeededRandom, store: StoreServer, in scratch: ScratchDirectory) async throws
        -> (Tally, entries: Int, converged: Bool)
    {
        var devices = try await makeDevices(store: store, in: scratch)
        var tally = Tally()
        var pending: [Pending] = []
        for _ in 0..<(Reliability.isLong ? 120 : 40) {
            tally.rounds += 1
            let index = Int.random(in: 0..<devices.count, using: &random)
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<25: try await charge(&devices[index], &random)
            case 25..<32: try await decline(&devices[index], &random, &tally)
            case 32..<38:
                try await devices[index].credit.ok(["topup"])
                tally.topUps += 1
            case 38..<60:
                try await sync(devices[index])
                tally.syncs += 1
            case 60..<65: try await syncWithFolderGone(devices[index], &tally)
            default: try copy(&random, devices, &pending, &tally)
            }
        }
        // The sync tool catches up: every copy finished, then every device's files everywhere, twice over.
        for copy in pending { try write(copy.bytes, to: copy.target) }
        for _ in 0..<2 {
            for device in devices { try await sync(device) }
            try copyEverything(devices)
        }
        for device in devices { try await sync(device) }
        let (entries, converged) = try await checkConverged(devices)
        return (tally, entries, converged)
    }

    /// Device a, set to the store, and b and c joined to it; each with its own (empty) copy of the folder.
    private func makeDevices(store: StoreServer, in scratch: ScratchDirectory) async throws -> [Device] {
        let root = scratch.file("root.pem")
        try store.saveRoot(to: root)
        var devices: [Device] = []
        for name in ["a", "b", "c"] {
            let folder = scratch.file("folder-\(name)")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let credit = try CreditRunner(dataDirectory: scratch.file("data-\(name)"))
            if name == "a" {
                try await credit.ok(["store", "use", "mockstore", "--url", store.url, "--root-certificate", root])
                try await credit.ok(["charge", "debrief"])
            } else {
                try await credit.ok(["join", devices[0].credit.dataDirectory])
            }
            devices.append(Device(name: name, credit: credit, folder: folder))
        }
        return devices
    }

    private func charge(_ device: inout Device, _ random: inout SeededRandom) async throws {
        let key = random.pick(["debrief", "send", "createVault"])
        let object = try await #require(try device.credit.ok(["charge", key, "--json"]).jsonObject())
        if let id = object["id"] as? String { device.ownCharges.append(id) }
    }

    /// Declines one of this device's own charges (once each: a second decline is refused, and says so).
    private func decline(_ device: inout Device, _ random: inout SeededRandom, _ tally: inout Tally) async throws {
        guard !device.ownCharges.isEmpty else { return }
        let id = device.ownCharges.remove(at: Int.random(in: 0..<device.ownCharges.count, using: &random))
        try await device.credit.ok(["decline", id, "--reason", "not-usable"])
        tally.declines += 1
    }

    /// A sync: done, or (its folder's account file still being copied) refused with exit 1 and nothing written.
    private func sync(_ device: Device) async throws {
        let result = try await device.credit.run(["sync", device.folder])
        if ProcessInfo.processInfo.environment["SYNC_TOOL_DEBUG"] != nil {
            Swift.print("\(device.name) sync: \(result)")
        }
        if result.status == 1 && result.stderr.contains("account.json cannot be read") { return }
        #expect(result.succeeded, "\(device.name): \(result)")
        #expect(!result.stdout.contains("disagrees"), "\(device.name): \(result.stdout)")
    }

    /// The folder is not there for a moment (unmounted, mid-rename): the sync says so, exit 1, and changes nothing.
    private func syncWithFolderGone(_ device: Device, _ tally: inout Tally) async throws {
        let away = device.folder + ".away"
        try FileManager.default.moveItem(atPath: device.folder, toPath: away)
        // The entries and heads (any open may make the lock file, or write a checkpoint, a cache).
        func ledger() -> [String: String] {
            DirectorySnapshot.take(device.credit.dataDirectory + "/ledger")
                .merging(DirectorySnapshot.take(device.credit.dataDirectory + "/heads")) { first, _ in first }
                .filter { !$0.key.hasSuffix("/.lock") }
        }
        let before = ledger()
        let result = try await device.credit.run(["sync", device.folder])
        #expect(result.status == 1 && result.stderr.contains("is not there"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: device.folder))
        let after = ledger()
        #expect(after == before, "changed: \(Set(after.keys).union(before.keys).filter { after[$0] != before[$0] })")
        try FileManager.default.moveItem(atPath: away, toPath: device.folder)
        tally.folderGone += 1
    }

    /// The sync tool copies one file of one device's folder into another's: whole, cut short (finished later, or
    /// overwritten by a later copy), or beside the file as a conflict copy.
    private func copy(
        _ random: inout SeededRandom, _ devices: [Device], _ pending: inout [Pending], _ tally: inout Tally
    ) throws {
        if !pending.isEmpty && random.chance(0.4) {
            let finished = pending.remove(at: Int.random(in: 0..<pending.count, using: &random))
            try write(finished.bytes, to: finished.target)
            return
        }
        let from = random.pick(devices)
        let to = random.pick(devices.filter { $0.name != from.name })
        let files = try syncedFiles(in: from.folder)
        guard !files.isEmpty else { return }
        let file = random.pick(files)
        guard let bytes = FileManager.default.contents(atPath: from.folder + "/" + file) else { return }
        let target = to.folder + "/" + file
        let roll = Int.random(in: 0..<100, using: &random)
        if roll < 20 && bytes.count > 1 {
            try write(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)), to: target)
            pending.append(Pending(bytes: bytes, target: target))
            tally.tornCopies += 1
        } else if roll < 30 && file.hasSuffix(".jsonl") {
            try write(bytes, to: String(target.dropLast(6)) + " (conflicted copy \(tally.rounds)).jsonl")
            tally.conflictCopies += 1
        } else {
            try write(bytes, to: target)
        }
    }

    /// Every file of every folder into every other folder, whole (conflict copies too).
    private func copyEverything(_ devices: [Device]) throws {
        for from in devices {
            for file in try syncedFiles(in: from.folder) {
                guard let bytes = FileManager.default.contents(atPath: from.folder + "/" + file) else { continue }
                for to in devices where to.name != from.name {
                    // Each device's own files are its own to write: the tool brings a newer one, never an older.
                    let own = file.contains(try deviceID(of: to))
                    if !own { try write(bytes, to: to.folder + "/" + file) }
                }
            }
        }
    }

    /// The files under a folder's `credit/`, relative to the folder.
    private func syncedFiles(in folder: String) throws -> [String] {
        guard let names = FileManager.default.subpaths(atPath: folder + "/credit") else { return [] }
        return names.filter { !$0.hasSuffix("/") && $0.contains(".") && !$0.hasPrefix(".") && !$0.contains("/.") }
            .map { "credit/" + $0 }.filter { path in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isDirectory)
                    && !isDirectory.boolValue
            }.sorted()
    }

    private func write<D: DataProtocol>(_ bytes: D, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    private func deviceID(of device: Device) throws -> String {
        try String(contentsOfFile: device.credit.dataDirectory + "/device", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every device: the same balance and the same entries, each id once, and `credit verify` clean.
    private func checkConverged(_ devices: [Device]) async throws -> (entries: Int, converged: Bool) {
        var balances: Set<Int64> = []
        var entrySets: Set<[String]> = []
        var count = 0
        var clean = true
        for device in devices {
            await balances.insert(try device.credit.balance())
            let entries = try await #require(try device.credit.ok(["entries", "--json"]).jsonArray())
            let ids = entries.compactMap { $0["id"] as? String }
            clean = clean && Set(ids).count == ids.count
            #expect(Set(ids).count == ids.count, "\(device.name): an entry shown twice")
            entrySets.insert(ids.sorted())
            count = ids.count
            let verify = try await device.credit.run(["verify"])
            clean = clean && verify.succeeded && verify.stdout.contains("All holds")
            #expect(verify.succeeded && verify.stdout.contains("All holds"), "\(device.name): \(verify)")
        }
        #expect(balances.count == 1, "balances differ: \(balances)")
        #expect(entrySets.count == 1, "the devices' entries differ")
        return (count, clean && balances.count == 1 && entrySets.count == 1)
    }
}
