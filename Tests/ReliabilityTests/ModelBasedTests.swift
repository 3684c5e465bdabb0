import CreditLedger
import Foundation
import Payments
import Signing
import StoreWire
import Synchronization
import Testing
import TopUp
import VoiceDebriefCredit

/// Model-based random testing: seeded random sequences of charge, decline (and declining twice), top-up through a
/// signed store, replay (the same transaction delivered again, the same charge appended again, the same id with
/// other content), crash (a simulated SIGKILL at a random file operation, then reopen and collect), reopen, power
/// loss, and merge between two devices, run against the real ledger and top-up flow and against a model: per device,
/// the entries it knows by id. After every step: the balance, the distinct ids, the takings by feature and the
/// screen totals equal the model's; after a merge both devices agree; every step's chain verifies. A failure prints
/// its seed, which replays it exactly (`RELIABILITY_SEED`).
@Suite struct ModelBasedTests {}

/// A store that signs its transactions with HS256, in memory: purchases, unfinished transactions, finish.
final class ModelStore: StoreProvider {
    static let secret: [UInt8] = Array("model-store-secret-0123456789abcdef".utf8)
    static let bundleID = "ai.voicedebrief.app"

    let name = "mockstore"
    let displayName = "mock store"
    let takesMoney = true
    private struct State {
        var next = 1
        var transactions: [(id: String, signed: SignedTransaction, finished: Bool)] = []
    }
    private let state = Mutex(State())

    func products(for ids: [String]) async throws -> [StoreProduct] { [] }

    func purchase(_ productID: String, appAccountToken: UUID?) async throws -> PurchaseOutcome {
        let signed = try state.withLock { state -> SignedTransaction in
            let id = "2000000000\(100_000 + state.next)"
            state.next += 1
            let payload = SignedTransactionPayload(
                transactionId: id, originalTransactionId: id, bundleId: ModelStore.bundleID, productId: productID,
                purchaseDate: 1_795_953_600_000, originalPurchaseDate: 1_795_953_600_000, quantity: 1,
                type: ProductType.consumable, signedDate: 1_795_953_600_000, price: 4990, currency: "GBP")
            let json = try JSONEncoder().encode(payload)
            let signed = SignedTransaction(
                jwsRepresentation: try CompactJWS.sign(payload: Array(json), with: .hs256(secret: ModelStore.secret)))
            state.transactions.append((id, signed, false))
            return signed
        }
        return .success(.signed(signed))
    }

    func unfinished() async throws -> [SignedTransaction] {
        state.withLock { $0.transactions.filter { !$0.finished }.map(\.signed) }
    }

    func finish(transactionID: String) async throws {
        state.withLock { state in
            for index in state.transactions.indices where state.transactions[index].id == transactionID {
                state.transactions[index].finished = true
            }
        }
    }

    func updates(after cursor: String?) async throws -> (signedTransactions: [SignedTransaction], cursor: String?) {
        ([], cursor)
    }

    var all: [(id: String, signed: SignedTransaction, finished: Bool)] { state.withLock { $0.transactions } }
}

/// The store as one simulated process reaches it: once ``SimulatedDisk`` has killed the process, no more calls. A real
/// SIGKILL stops the process where it is; in the simulation a kill is an error, and one in an append's follow-up (the
/// signed head) is reported, not thrown, so the process would go on to finish a purchase it could never have reached.
final class LivingProcessStore: StoreProvider, @unchecked Sendable {  // one test task at a time uses it
    let store: ModelStore
    let disk: SimulatedDisk

    init(_ store: ModelStore, disk: SimulatedDisk) {
        self.store = store
        self.disk = disk
    }

    var name: String { store.name }
    var displayName: String { store.displayName }
    var takesMoney: Bool { store.takesMoney }

    private func alive() throws {
        if disk.processIsDead { throw ProcessKilled(operation: disk.operations) }
    }

    func products(for ids: [String]) async throws -> [StoreProduct] {
        try alive()
        return try await store.products(for: ids)
    }

    func purchase(_ productID: String, appAccountToken: UUID?) async throws -> PurchaseOutcome {
        try alive()
        return try await store.purchase(productID, appAccountToken: appAccountToken)
    }

    func unfinished() async throws -> [SignedTransaction] {
        try alive()
        return try await store.unfinished()
    }

    func finish(transactionID: String) async throws {
        try alive()
        try await store.finish(transactionID: transactionID)
    }

    func updates(after cursor: String?) async throws -> (signedTransactions: [SignedTransaction], cursor: String?) {
        try alive()
        return try await store.updates(after: cursor)
    }
}

/// One device of the model: its data directory, file layer, ledger, and what the model says it knows.
final class ModelDevice {
    let name: String
    let directory: String
    var disk: SimulatedDisk
    var ledger: Ledger?
    /// The model: every entry this device knows, by id.
    var known: [String: LedgerEntry] = [:]
    let clock: FixedClock
    let ids: SequentialIDs

    init(name: String, root: String, start: Int64) throws {
        self.name = name
        directory = root + "/" + name
        try SharedKeys.install(in: directory)
        disk = SimulatedDisk(root: directory)
        clock = FixedClock(Timestamp(milliseconds: start), step: 997)
        ids = SequentialIDs(prefix: name)
    }

    func open() throws {
        ledger = nil
        ledger = try Ledger.openSigned(directory: directory, clock: clock, ids: ids, fileSystem: disk)
    }

    var current: Ledger { get throws { try #require(ledger) } }

    func flow(_ store: ModelStore) throws -> TopUpFlow {
        TopUpFlow(
            ledger: try current, store: LivingProcessStore(store, disk: disk),
            verifier: ReceiptVerifier(
                method: .hs256(secret: ModelStore.secret), bundleID: ModelStore.bundleID, environment: .sandbox),
            catalogue: TestPacks.twoPacks, bundleID: ModelStore.bundleID)
    }

    var modelBalance: Int64 { known.values.reduce(0) { $0 + $1.amount.rawValue } }
}

struct ModelFailure: Error, CustomStringConvertible {
    var description: String
}

extension ModelBasedTests {
    static let features = ["debrief", "send", "transcript", "createVault", "glossaryWord"]

    @Test func seededSequencesAgreeWithTheModel() async throws {
        var figures = Figures(suite: "model-based", test: #function)
        defer { figures.record() }
        for seed in Reliability.seeds("model", fast: 12, long: 400) {
            figures.runs += 1
            var log: [String] = []
            do {
                let (steps, faults, checked) = try await runModel(seed: seed, log: &log)
                figures.faults += faults
                figures.entriesChecked += checked
                _ = steps
            } catch {
                figures.failures += 1
                Issue.record(
                    """
                    \(error)
                    \(Reliability.replayHint(seed: seed, test: "seededSequencesAgreeWithTheModel"))
                    steps:
                      \(log.suffix(25).joined(separator: "\n  "))
                    """)
                return
            }
        }
    }

    /// Runs one seeded sequence; returns the steps, the faults injected and the entries checked.
    func runModel(seed: UInt64, log: inout [String]) async throws -> (Int, Int, Int) {
        var random = SeededRandom(seed: seed)
        let scratch = try ScratchDirectory("model", inMemory: true)
        let store = ModelStore()
        let devices = [
            try ModelDevice(name: "alpha", root: scratch.path, start: 1_795_953_600_000),
            try ModelDevice(name: "beta", root: scratch.path, start: 1_795_953_700_000),
        ]
        var faults = 0
        var checked = 0
        for device in devices {
            try device.open()
            let ledger = try device.current
            device.known = ["opening": try #require(ledger.entry(id: "opening"))]
        }
        var chargeNumber = 0
        let length = Int.random(in: 15...(Reliability.isLong ? 60 : 30), using: &random)
        for _ in 0..<length {
            let device = random.pick(devices)
            let other = devices.first { $0 !== device }!
            if device.ledger == nil { try device.open() }
            let ledger = try device.current
            let action = Int.random(in: 0..<100, using: &random)
            switch action {
            case 0..<30:
                chargeNumber += 1
                let id = "\(device.name)-charge-\(chargeNumber)"
                let feature = random.pick(ModelBasedTests.features)
                let draft = charge(id, pence: Int64.random(in: 1...99, using: &random), feature: feature)
                log.append("\(device.name): charge \(id) \(draft.amount.rawValue) \(feature)")
                let entry = try ledger.append(draft).entry
                device.known[id] = entry
            case 30..<42:
                let open = device.known.values.filter { $0.kind == .charge && device.known["refund-" + $0.id] == nil }
                guard let target = open.randomElement(using: &random) else { continue }
                log.append("\(device.name): decline \(target.id)")
                let refund = try ledger.decline(target.id, reason: try DeclineReason(key: "not-usable", text: nil))
                device.known[refund.id] = refund
                // Declining it again is refused, and writes nothing.
                log.append("\(device.name): decline \(target.id) again")
                let before = ledger.balance
                do {
                    _ = try ledger.decline(target.id, reason: try DeclineReason(key: "test", text: nil))
                    throw ModelFailure(description: "declining \(target.id) twice was accepted")
                } catch LedgerError.cannotDecline {}
                if ledger.balance != before { throw ModelFailure(description: "a refused decline changed the balance") }
            case 42..<55:
                log.append("\(device.name): top-up")
                let result = try await device.flow(store).topUp(
                    productID: random.chance(0.3)
                        ? "ai.voicedebrief.app.credit.1000" : VoiceDebriefStore.packs.defaultProduct)
                guard case .credited(let entry) = result else { throw ModelFailure(description: "top-up: \(result)") }
                device.known[entry.id] = entry
            case 55..<63:
                // Replays: a transaction delivered again (here, or first on this device), a charge appended again,
                // and the same id with other content.
                if let transaction = store.all.randomElement(using: &random), random.chance(0.6) {
                    log.append("\(device.name): deliver \(transaction.id) again")
                    let result = try await device.flow(store).deliver(transaction.signed)
                    switch result {
                    case .credited(let entry), .alreadyCredited(let entry):
                        if case .alreadyCredited = result, device.known[entry.id] == nil {
                            throw ModelFailure(
                                description: "\(entry.id) already credited on \(device.name), unknown to the model")
                        }
                        if case .credited = result, device.known[entry.id] != nil {
                            throw ModelFailure(description: "\(entry.id) credited twice on \(device.name)")
                        }
                        device.known[entry.id] = entry
                    default: throw ModelFailure(description: "delivery: \(result)")
                    }
                } else if let existing = device.known.values.filter({ $0.kind == .charge }).randomElement(
                    using: &random)
                {
                    log.append("\(device.name): append \(existing.id) again, then with another amount")
                    let same = EntryDraft(
                        id: existing.id, kind: .charge, feature: existing.feature, quantity: existing.quantity,
                        amount: existing.amount)
                    guard case .alreadyRecorded = try ledger.append(same) else {
                        throw ModelFailure(description: "a replayed charge was written again")
                    }
                    var different = same
                    different.amount = MicroCredits(existing.amount.rawValue - 10_000)
                    do {
                        try ledger.append(different)
                        throw ModelFailure(description: "the same id with another amount was accepted")
                    } catch LedgerError.conflict {}
                }
            case 63..<73:
                // A crash: the process is killed at a random file operation of the next charge or top-up; the next
                // process opens the ledger again and collects what the store holds.
                let disk = device.disk
                disk.killAt = disk.operations + Int.random(in: 0..<9, using: &random)
                faults += 1
                let topUp = random.chance(0.4)
                chargeNumber += 1
                let id = "\(device.name)-charge-\(chargeNumber)"
                let draft = charge(id, pence: 7, feature: "send")
                log.append(
                    "\(device.name): crash during \(topUp ? "a top-up" : "charge \(id)") at operation \(disk.killAt!)")
                var acknowledged: LedgerEntry?
                do {
                    if topUp {
                        if case .credited(let entry) = try await device.flow(store).topUp() { acknowledged = entry }
                    } else {
                        acknowledged = try ledger.append(draft).entry
                    }
                } catch  where disk.processIsDead {}
                disk.killAt = nil
                if disk.processIsDead {
                    device.ledger = nil
                    disk.restartProcess()
                    try device.open()
                    let report = try await device.flow(store).collect()
                    log.append("\(device.name): reopened, collected \(report.credited.map(\.id))")
                    for entry in report.credited + report.alreadyCredited { device.known[entry.id] = entry }
                    if let entry = try device.current.entry(id: id) { device.known[id] = entry }
                } else if let acknowledged {
                    device.known[acknowledged.id] = acknowledged
                }
            case 73..<80:
                log.append("\(device.name): reopen")
                try device.open()
            case 80..<86:
                // Power loss: everything acknowledged was synced, so the model stands.
                log.append("\(device.name): power loss")
                device.ledger = nil
                device.disk.powerFail(unsynced: random.pick([.lost, .zeroFilled, .partlyWritten(fraction: 0.5)]))
                faults += 1
                device.disk = SimulatedDisk(root: device.directory)
                try device.open()
            default:
                log.append("\(device.name): merge from \(other.name)")
                let otherLedger = try other.current
                let files = otherLedger.devicePaths.values.sorted()
                let report = try AccountSync(ledger).merge(files: files)
                if !report.problems.isEmpty { throw ModelFailure(description: "merge problems: \(report.problems)") }
                for (id, entry) in other.known where device.known[id] == nil { device.known[id] = entry }
            }
            checked += try check(device, log: log)
        }
        // Both ways, and then they agree.
        for (device, other) in [(devices[0], devices[1]), (devices[1], devices[0])] {
            if device.ledger == nil { try device.open() }
            if other.ledger == nil { try other.open() }
            let report = try AccountSync(device.current).merge(files: try other.current.devicePaths.values.sorted())
            if !report.problems.isEmpty { throw ModelFailure(description: "final merge problems: \(report.problems)") }
            for (id, entry) in other.known where device.known[id] == nil { device.known[id] = entry }
            log.append("\(device.name): final merge from \(other.name)")
            checked += try check(device, log: log)
        }
        if Set(devices[0].known.keys) != Set(devices[1].known.keys)
            || devices[0].modelBalance != devices[1].modelBalance
        {
            throw ModelFailure(description: "after merging both ways the devices differ")
        }
        // Merging again changes nothing.
        let again = try AccountSync(devices[0].current).merge(files: try devices[1].current.devicePaths.values.sorted())
        if again.addedCount != 0 { throw ModelFailure(description: "a second merge added \(again.addedCount)") }
        // Every purchase was credited, each once.
        let credited = Set(devices[0].known.values.filter { $0.kind == .topup }.compactMap(\.reference))
        let bought = Set(store.all.map(\.id))
        if credited != bought {
            throw ModelFailure(description: "bought \(bought.sorted()), credited \(credited.sorted())")
        }
        return (length, faults, checked)
    }

    /// Checks `device` against the model; returns the entries checked.
    func check(_ device: ModelDevice, log: [String]) throws -> Int {
        let ledger = try device.current
        let ids = Set(ledger.distinctEntries.map(\.id))
        let model = Set(device.known.keys)
        if ids != model {
            throw ModelFailure(
                description:
                    "\(device.name): the ledger has \(ids.subtracting(model).sorted()) beyond the model, lacks \(model.subtracting(ids).sorted())"
            )
        }
        if ledger.balance.rawValue != device.modelBalance {
            throw ModelFailure(
                description: "\(device.name): balance \(ledger.balance.rawValue), model \(device.modelBalance)")
        }
        for (id, entry) in device.known where ledger.entry(id: id)?.essence != entry.essence {
            throw ModelFailure(
                description:
                    "\(device.name): \(id) is \(ledger.entry(id: id)?.essence ?? "gone"), model \(entry.essence)")
        }
        // Takings by feature and the screen's totals, from the model's entries.
        var takings: [String: FeatureTakings] = [:]
        var used: Int64 = 0
        var toppedUp: Int64 = 0
        for entry in device.known.values {
            switch entry.kind {
            case .charge, .refund:
                used -= entry.amount.rawValue
                guard let feature = entry.feature else { continue }
                var line = takings[feature] ?? FeatureTakings(feature: feature)
                if entry.kind == .charge {
                    line.charges += 1
                    line.charged = MicroCredits(line.charged.rawValue - entry.amount.rawValue)
                } else {
                    line.declined += 1
                    line.givenBack = MicroCredits(line.givenBack.rawValue + entry.amount.rawValue)
                }
                line.net = MicroCredits(line.charged.rawValue - line.givenBack.rawValue)
                takings[feature] = line
            case .topup, .reversal: toppedUp += entry.amount.rawValue
            case .opening: break
            }
        }
        let actual = Dictionary(uniqueKeysWithValues: try FeatureTakings.list(in: ledger).map { ($0.feature, $0) })
        if actual != takings { throw ModelFailure(description: "\(device.name): takings \(actual), model \(takings)") }
        let totals = try LedgerTotals(of: ledger)
        if totals.used.rawValue != used || totals.toppedUp.rawValue != toppedUp {
            throw ModelFailure(
                description: "\(device.name): totals \(totals), model used \(used) topped up \(toppedUp)")
        }
        let report = try ledger.verify(receiptCheck: { entry in
            ReceiptAudit(
                verifier: ReceiptVerifier(
                    method: .hs256(secret: ModelStore.secret), bundleID: ModelStore.bundleID, environment: .sandbox),
                catalogue: TestPacks.twoPacks
            ).problem(with: entry)
        })
        if !report.isClean {
            throw ModelFailure(description: "\(device.name): verify: \(report.problems.map(\.description))")
        }
        return ledger.entries.count
    }
}
