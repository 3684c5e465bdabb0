import CreditLedger
import Platform
import Signing
import VoiceDebriefCredit

/// A small fast PRNG with a fixed seed, so every run makes the same ledgers.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Makes one device's signed entries the way the app writes them: the opening credit, then charges of the app's
/// feature keys at their prices (minutes of transcript, files saved to a vault, notes read, ...), each with its
/// subject, about one in twenty declined (a refund referring to the charge), and a simulated top-up whenever the
/// balance runs low or now and then. Each entry has its own time, seconds to minutes after the one before, and is
/// chained with HMAC-SHA256 under `macKey` exactly as the ledger chains them.
struct EntryFactory {
    let device: String
    private var random: SplitMix64
    private let authenticator: HMACAuthenticator
    private var sequence: Int64 = 0
    private var time: Int64
    private var balance: Int64 = 0
    private var previous = String(repeating: "0", count: 64)
    private var note = 1
    private var topUps = 0
    private var recentCharges: [LedgerEntry] = []
    private let features: [PriceItem]
    private let vaultKeys: Set<String> = [
        "createVault", "addVault", "saveToVault", "pushVault", "pullVault", "readVaultFile", "removeVault",
    ]

    init(device: String, macKey: [UInt8], seed: UInt64, start: Int64 = 1_767_225_600_000) throws {
        self.device = device
        random = SplitMix64(seed: seed)
        authenticator = try HMACAuthenticator(key: macKey)
        time = start
        // The acts people do most come up most.
        let prices = VoiceDebriefPrices().items
        let weights = [
            "transcript": 12, "debrief": 6, "readNote": 20, "saveToVault": 8, "send": 5, "cleanPassage": 6,
            "pushVault": 4, "pullVault": 4, "readVaultFile": 6, "importFile": 2, "glossaryWord": 2,
        ]
        features = prices.flatMap { item in Array(repeating: item, count: weights[item.key] ?? 1) }
    }

    /// The next entry and its line, exactly as written to the file.
    mutating func next() -> (entry: LedgerEntry, line: [UInt8]) {
        sequence += 1
        time += Int64(random.next() % 120_000) + 1_000
        var entry: LedgerEntry
        if sequence == 1 {
            entry = make(id: "opening", kind: .opening, amount: 5_000_000, text: "Starting credit")
        } else if balance < -2_000_000 || random.next() % 70 == 0 {
            topUps += 1
            // The app's one pack (the owner's note: "One pack of £5.00").
            let reference = "SIM-\(device.prefix(8))-\(topUps)"
            entry = make(
                id: "topup-simulated-\(reference)", kind: .topup, amount: 5_000_000,
                text: "Top-up (simulated, no money taken)", reference: reference,
                product: VoiceDebriefStore.packs.defaultProduct)
        } else if !recentCharges.isEmpty && random.next() % 20 == 0 {
            let charge = recentCharges.remove(at: Int(random.next() % UInt64(recentCharges.count)))
            let reasons = ["not-usable", "not-needed", "test", "other"]
            let reason = reasons[Int(random.next() % 4)]
            entry = make(
                id: "refund-" + charge.id, kind: .refund, feature: charge.feature, subject: charge.subject,
                quantity: charge.quantity, amount: -charge.amount.rawValue, refersTo: charge.id, reason: reason,
                text: reason == "other" ? "The transcript missed the second speaker" : nil)
        } else {
            let item = features[Int(random.next() % UInt64(features.count))]
            var quantity: Int64 = 1
            switch item.unit {
            case .perStartedMinute: quantity = Int64(random.next() % 25) + 1
            case .perItem(let maximum): quantity = Int64(random.next() % UInt64(maximum)) + 1
            case .each, .whenSomethingMoved: quantity = 1
            }
            if random.next() % 5 == 0 { note += 1 }
            let subject = vaultKeys.contains(item.key) ? "vault-\(note % 40)" : "note-\(note)"
            entry = make(
                id: uuid(), kind: .charge, feature: item.key, subject: subject, quantity: quantity,
                amount: -item.price.rawValue * quantity)
            recentCharges.append(entry)
            if recentCharges.count > 64 { recentCharges.removeFirst() }
        }
        let body = EntryCodec.body(of: entry)
        let mac = Hex.encode(authenticator.authenticationCode(for: body))
        entry.mac = mac
        previous = mac
        return (entry, EntryCodec.line(body: body, mac: mac))
    }

    private mutating func make(
        id: String, kind: EntryKind, feature: String? = nil, subject: String? = nil, quantity: Int64 = 1,
        amount: Int64, refersTo: String? = nil, reason: String? = nil, text: String? = nil,
        reference: String? = nil, product: String? = nil
    ) -> LedgerEntry {
        balance += amount
        return LedgerEntry(
            id: id, device: device, sequence: sequence, time: Timestamp(milliseconds: time), kind: kind,
            feature: feature, subject: subject, quantity: quantity, amount: MicroCredits(amount),
            balanceAfter: MicroCredits(balance), refersTo: refersTo, reason: reason, text: text, reference: reference,
            product: product, prev: previous)
    }

    /// A random (version 4) UUID, lowercased, as the app makes charge ids.
    private mutating func uuid() -> String {
        let digits = Array("0123456789abcdef".utf8)
        let words = [random.next(), random.next()]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(36)
        for index in 0..<32 {
            if index == 8 || index == 12 || index == 16 || index == 20 { bytes.append(UInt8(ascii: "-")) }
            var nibble = Int((words[index / 16] >> (UInt64(index % 16) * 4)) & 0xF)
            if index == 12 { nibble = 4 }
            if index == 16 { nibble = 8 | (nibble & 3) }
            bytes.append(digits[nibble])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Data directories for the bench, written directly (as a device that made `count` entries over a year would
/// have left them): keys, device id, the ledger file and the signed head.
enum LedgerData {
    /// Makes a signed ledger of `count` entries in `directory`; returns the file's path and size.
    @discardableResult
    static func makeLedger(count: Int, device: String, in directory: String, seed: UInt64) throws -> (
        path: String, bytes: Int
    ) {
        try makeDirectory(directory)
        try makeDirectory(directory + "/ledger")
        let keys = try LedgerKeys.loadOrCreate(in: directory)
        try writeFile(directory + "/device", Array((device + "\n").utf8))
        var factory = try EntryFactory(device: device, macKey: keys.macKey, seed: seed)
        let path = directory + "/ledger/" + device + ".jsonl"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw BenchError("cannot create \(path)") }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(8 << 20)
        var total = 0
        var last: LedgerEntry?
        for _ in 0..<count {
            let (entry, line) = factory.next()
            buffer.append(contentsOf: line)
            last = entry
            if buffer.count >= 8 << 20 {
                try writeAll(fd, buffer, path: path)
                total += buffer.count
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try writeAll(fd, buffer, path: path)
        total += buffer.count
        fsync(fd)
        close(fd)
        if let last { try SignedHead.make(for: last, key: keys.headKey).write(in: directory) }
        return (path, total)
    }

    /// `count` entries of one device, in memory, signed with `macKey`.
    static func entries(
        count: Int, device: String, macKey: [UInt8], seed: UInt64, start: Int64 = 1_767_225_600_000
    ) throws -> [LedgerEntry] {
        var factory = try EntryFactory(device: device, macKey: macKey, seed: seed, start: start)
        var entries: [LedgerEntry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count { entries.append(factory.next().entry) }
        return entries
    }

    static func makeDirectory(_ path: String) throws {
        if mkdir(path, 0o700) != 0 && errno != EEXIST { throw BenchError("cannot make \(path)") }
    }

    static func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw BenchError("cannot create \(path)") }
        defer { close(fd) }
        try writeAll(fd, bytes, path: path)
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws {
        try bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let count = write(fd, raw.baseAddress! + done, raw.count - done)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw BenchError("write to \(path) failed")
                }
                done += count
            }
        }
    }

    /// A small file's text.
    static func readText(_ path: String) throws -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw BenchError("cannot open \(path)") }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        return String(decoding: bytes[0..<max(0, count)], as: UTF8.self)
    }

    /// Removes `path` and everything under it.
    static func remove(_ path: String) {
        _ = try? Measure.run("/bin/rm", ["-rf", path], captureOutput: false)
    }
}
