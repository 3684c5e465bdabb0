import CreditLedger
import Foundation
import Testing

/// Model-based random testing of one account on three devices (issue 12): seeded random sequences of charge,
/// top-up, a store transaction credited again under another id, join, merge (of another device's data directory)
/// and tamper (a changed copy of another device's file, which the merge must refuse with nothing changed), against
/// a model: per device, the entries it knows by id, each store transaction counted once. After every step the
/// device's balance and distinct entries equal the model's; at the end every device has merged every other, all
/// agree, and `verify` reports only the replayed receipts. A failure prints its seed (`RELIABILITY_SEED`).
@Suite struct AccountModelTests {
    final class Device {
        let name: String
        let directory: String
        var ledger: Ledger?
        var known: [String: LedgerEntry] = [:]
        let clock: FixedClock
        let ids: SequentialIDs

        init(name: String, root: String, start: Int64) {
            self.name = name
            directory = root + "/" + name
            clock = FixedClock(Timestamp(milliseconds: start), step: 997)
            ids = SequentialIDs(prefix: name)
        }

        func open() throws { ledger = try Ledger.openSigned(directory: directory, clock: clock, ids: ids) }

        var current: Ledger { get throws { try #require(ledger) } }

        /// The model's balance and number of entries that count: every id once, every store transaction once.
        var model: (balance: Int64, counted: Int) {
            var references: Set<String> = []
            var balance: Int64 = 0
            var counted = 0
            for entry in known.values {
                if entry.kind == .topup, let reference = entry.reference {
                    guard references.insert(reference).inserted else { continue }
                }
                balance += entry.amount.rawValue
                counted += 1
            }
            return (balance, counted)
        }

        /// Credits beyond the first of a store transaction.
        var replays: Int { known.values.filter { $0.kind == .topup }.count - modelReferenceCount }
    }

    @Test func seededSequencesOfJoinMergeAndTamperAgreeWithTheModel() throws {
        var figures = Figures(suite: "model-based", test: #function)
        defer { figures.record() }
        for seed in Reliability.seeds("accounts", fast: 8, long: 200) {
            figures.runs += 1
            var log: [String] = []
            do {
                let (faults, checked) = try run(seed: seed, log: &log)
                figures.faults += faults
                figures.entriesChecked += checked
            } catch {
                figures.failures += 1
                Issue.record(
                    """
                    \(error)
                    \(Reliability.replayHint(seed: seed, test: "seededSequencesOfJoinMergeAndTamperAgreeWithTheModel"))
                    steps:
                      \(log.suffix(25).joined(separator: "\n  "))
                    """)
                return
            }
        }
    }

    private func snapshot(_ directory: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for folder in ["ledger", "heads", "keys"] {
            let path = directory + "/" + folder
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] where name != ".lock" {
                files[folder + "/" + name] = FileManager.default.contents(atPath: path + "/" + name)
            }
        }
        files["device"] = FileManager.default.contents(atPath: directory + "/device")
        return files
    }

    private func check(_ device: Device) throws -> Int {
        let ledger = try device.current
        let model = device.model
        if ledger.balance.rawValue != model.balance {
            throw ModelFailure(
                description: "\(device.name): balance \(ledger.balance.rawValue), model \(model.balance)")
        }
        let distinct = ledger.distinctEntries
        if distinct.count != model.counted {
            throw ModelFailure(description: "\(device.name): \(distinct.count) entries count, model \(model.counted)")
        }
        if distinct.first?.kind != .opening {
            throw ModelFailure(description: "\(device.name): the history does not start with the opening")
        }
        return distinct.count
    }

    func run(seed: UInt64, log: inout [String]) throws -> (Int, Int) {
        var random = SeededRandom(seed: seed)
        let scratch = try ScratchDirectory("accounts", inMemory: true)
        let devices = ["alpha", "beta", "gamma"].enumerated().map { number, name in
            Device(name: name, root: scratch.path, start: 1_795_953_600_000 + Int64(number) * 50_000)
        }
        try devices[0].open()
        devices[0].known = ["opening": try #require(try devices[0].current.entry(id: "opening"))]
        var joined = [devices[0]]
        var faults = 0
        var checked = 0
        var number = 0
        let length = Int.random(in: 15...(Reliability.isLong ? 60 : 30), using: &random)
        for _ in 0..<length {
            number += 1
            let device = random.pick(joined)
            let ledger = try device.current
            let others = joined.filter { $0 !== device }
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<30:
                let id = "\(device.name)-charge-\(number)"
                log.append("\(device.name): charge \(id)")
                device.known[id] = try ledger.append(charge(id, pence: Int64.random(in: 1...99, using: &random))).entry
            case 30..<42:
                let reference = "T\(number)"
                log.append("\(device.name): top-up \(reference)")
                let draft = EntryDraft(
                    id: "topup-simulated-\(reference)", kind: .topup, amount: MicroCredits(10_000_000),
                    reference: reference)
                device.known[draft.id] = try ledger.append(draft).entry
            case 42..<52:
                // A store transaction credited again under another id: refused where its credit is known,
                // written (and later counted once) where it is not.
                let all = devices.flatMap { $0.known.values }.filter { $0.kind == .topup }.compactMap(\.reference)
                guard let reference = all.sorted().randomElement(using: &random) else { continue }
                let draft = EntryDraft(
                    id: "topup-simulated-replay-\(number)-\(reference)", kind: .topup, amount: MicroCredits(10_000_000),
                    reference: reference)
                let knownHere = device.known.values.contains { $0.kind == .topup && $0.reference == reference }
                log.append("\(device.name): credit \(reference) again as \(draft.id) (known here: \(knownHere))")
                if knownHere {
                    let before = try snapshot(device.directory)
                    do {
                        try ledger.append(draft)
                        throw ModelFailure(description: "a second credit of \(reference) was written")
                    } catch LedgerError.invalid {}
                    if try snapshot(device.directory) != before {
                        throw ModelFailure(description: "a refused credit changed the directory")
                    }
                } else {
                    device.known[draft.id] = try ledger.append(draft).entry
                }
            case 52..<64:
                guard let newcomer = devices.first(where: { $0.ledger == nil }) else { continue }
                let source = random.pick(joined)
                log.append("\(newcomer.name): join from \(source.name)")
                try AccountSync.join(directory: newcomer.directory, account: source.directory, ids: newcomer.ids)
                try newcomer.open()
                newcomer.known = source.known
                joined.append(newcomer)
                checked += try check(newcomer)
            case 64..<88:
                guard let other = others.randomElement(using: &random) else { continue }
                log.append("\(device.name): merge \(other.name)'s directory")
                _ = try AccountSync(ledger).merge(files: [other.directory])
                for (id, entry) in other.known where device.known[id] == nil { device.known[id] = entry }
            default:
                guard let other = others.randomElement(using: &random),
                    let file = try other.current.devicePaths[other.current.device],
                    var lines = FileManager.default.contents(atPath: file).map({ Array($0) })?.split(
                        separator: 0x0A
                    ).map(Array.init),
                    !lines.isEmpty
                else { continue }
                let line = Int.random(in: 0..<lines.count, using: &random)
                var text = String(decoding: lines[line], as: UTF8.self)
                text = text.replacingOccurrences(of: "\"id\":\"", with: "\"id\":\"x")
                lines[line] = Array(text.utf8)
                let copy = scratch.path + "/tampered-\(number).jsonl"
                FileManager.default.createFile(atPath: copy, contents: Data(lines.flatMap { $0 + [0x0A] }))
                log.append("\(device.name): merge \(other.name)'s file with line \(line + 1) changed")
                faults += 1
                let before = try snapshot(device.directory)
                do {
                    _ = try AccountSync(ledger).merge(files: [copy])
                    throw ModelFailure(description: "a tampered file was merged")
                } catch is MergeRefusal {}
                if try snapshot(device.directory) != before {
                    throw ModelFailure(description: "a refused merge changed the directory")
                }
            }
            checked += try check(device)
        }
        // Every joined device merges every other, twice round: then they all agree.
        for _ in 0..<2 {
            for device in joined {
                for other in joined where other !== device {
                    _ = try AccountSync(device.current).merge(files: [other.directory])
                    for (id, entry) in other.known where device.known[id] == nil { device.known[id] = entry }
                }
                checked += try check(device)
            }
        }
        for device in joined {
            let ledger = try device.current
            if ledger.balance != (try joined[0].current.balance) {
                throw ModelFailure(description: "after merging all ways \(device.name) differs")
            }
            let report = try ledger.verify(receiptCheck: nil)
            let kinds = Set(report.problems.map(\.kind))
            if !kinds.isSubset(of: [.receiptReplayed]) {
                throw ModelFailure(description: "\(device.name): verify found \(report.problems)")
            }
            if report.problems.count != device.replays || report.balance != ledger.balance {
                throw ModelFailure(
                    description:
                        "\(device.name): verify reported \(report.problems.count) replays, model \(device.replays)")
            }
        }
        return (faults, checked)
    }
}

extension AccountModelTests.Device {
    /// How many store transactions are credited.
    var modelReferenceCount: Int { Set(known.values.filter { $0.kind == .topup }.compactMap(\.reference)).count }
}
