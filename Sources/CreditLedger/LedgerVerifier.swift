import Signing

/// One thing `credit verify` found wrong, with where.
public struct VerificationProblem: Sendable, Equatable, CustomStringConvertible {
    /// What kind of tampering or damage it looks like.
    public enum Kind: String, Sendable, Codable {
        case changed, inserted, deleted, reordered, truncated, forked, duplicated, unreadable
        case headInvalid = "head-invalid"
        case headMissing = "head-missing"
        case receiptInvalid = "receipt-invalid"
        case unsigned
    }

    public var kind: Kind
    public var file: String
    /// The line, from 1; nil when the problem is the file as a whole.
    public var line: Int?
    public var detail: String

    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): \(kind.rawValue): \(detail)"
    }
}

/// What `credit verify` checked and found.
public struct VerificationReport: Sendable {
    public var entriesChecked = 0
    public var devices: [String] = []
    public var balance: MicroCredits = .zero
    public var receiptsChecked = 0
    public var simulatedTopUps = 0
    public var problems: [VerificationProblem] = []
    /// Things worth knowing that are not wrong (a head one entry behind after an interrupted write).
    public var notes: [String] = []

    public var isClean: Bool { problems.isEmpty }
}

/// Checks signed ledger files: every line's MAC over its exact bytes, every device's chain (`prev`, contiguous
/// sequence), every signed head, ids duplicated with other content, forks, and every top-up's store receipt.
public struct LedgerVerifier {
    public let macKey: [UInt8]
    public let headPublicKey: P256PublicKey?
    /// Checks a top-up's receipt; returns why it is bad, or nil when it verifies. Nil when receipts cannot be checked.
    public let receiptCheck: ((LedgerEntry) -> String?)?

    public init(macKey: [UInt8], headPublicKey: P256PublicKey?, receiptCheck: ((LedgerEntry) -> String?)?) {
        self.macKey = macKey
        self.headPublicKey = headPublicKey
        self.receiptCheck = receiptCheck
    }

    private struct Line {
        var number: Int
        var entry: LedgerEntry?
        var macValid: Bool
        var parseError: String?
    }

    /// Verifies `files`, checking each device's head from `heads` (by device) when given.
    public func verify(files: [String], heads: [String: SignedHead], requireHeads: Set<String> = []) throws -> VerificationReport {
        var report = VerificationReport()
        let hmac = try HMACSHA256(key: macKey)
        var byID: [String: (entry: LedgerEntry, place: String)] = [:]
        var bySequence: [String: [Int64: (mac: String?, place: String)]] = [:]
        var balance = MicroCredits.zero
        var devices: Set<String> = []

        for path in files {
            let bytes = try POSIXFile.readAll(path)
            let fileDevice = path.lastPathComponent.hasSuffix(".jsonl") ? String(path.lastPathComponent.dropLast(6)) : nil
            var lines: [Line] = []
            var tornAt: Int?
            bytes.withUnsafeBufferPointer { buffer in
                var start = 0
                var number = 0
                while start < buffer.count {
                    number += 1
                    let newline = buffer[start...].firstIndex(of: 0x0A)
                    let end = newline ?? buffer.count
                    let slice = UnsafeBufferPointer(rebasing: buffer[start..<end])
                    if newline == nil { tornAt = number }
                    var line = Line(number: number, entry: nil, macValid: false, parseError: nil)
                    do throws(EntryParseError) {
                        line.entry = try EntryCodec.parse(slice)
                    } catch {
                        line.parseError = error.reason
                    }
                    if let entry = line.entry, let mac = entry.mac, let prefix = EntryCodec.macCoveredPrefix(of: slice),
                        let expected = Hex.decode(mac)
                    {
                        let actual = hmac.authenticationCode(for: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(slice)[0..<prefix]))
                        line.macValid = ConstantTime.equals(actual, expected)
                    }
                    lines.append(line)
                    start = end + 1
                }
            }
            let device = fileDevice ?? lines.first?.entry?.device ?? path
            devices.insert(device)
            var problems: [VerificationProblem] = []
            func problem(_ kind: VerificationProblem.Kind, _ line: Int?, _ detail: String) {
                problems.append(VerificationProblem(kind: kind, file: path, line: line, detail: detail))
            }
            if let tornAt {
                problem(.truncated, tornAt, "the last line is incomplete (no newline): an interrupted write or a cut")
            }
            let present = Set(lines.compactMap { $0.macValid && $0.entry?.device == device ? $0.entry?.sequence : nil })
            var expected: Int64 = 1
            var lastMAC = String(repeating: "0", count: 64)
            var seen: [Int64: (mac: String?, line: Int)] = [:]
            var reportedReorder = false
            for line in lines {
                report.entriesChecked += 1
                guard let entry = line.entry else {
                    if line.number != tornAt { problem(.unreadable, line.number, "the line is not a ledger entry (\(line.parseError ?? "?")): changed or damaged") }
                    continue
                }
                if entry.mac == nil {
                    problem(.unsigned, line.number, "the entry carries no MAC (run `credit upgrade` for a ledger made before signing)")
                    continue
                }
                if !line.macValid {
                    if entry.device != device {
                        problem(.inserted, line.number, "entry \(entry.id) belongs to device \(entry.device) and its MAC does not verify with this ledger's key: spliced in from another ledger")
                    } else if present.contains(entry.sequence) || entry.sequence != expected {
                        problem(.inserted, line.number, "entry \(entry.id) (#\(entry.sequence)) does not verify with this ledger's key: inserted")
                    } else {
                        problem(.changed, line.number, "entry \(entry.id) (#\(entry.sequence)) was changed after it was written: its MAC does not match its bytes")
                        // It still takes its place in the chain, so the next line is judged on its own.
                        expected = entry.sequence + 1
                        lastMAC = entry.mac ?? lastMAC
                    }
                    continue
                }
                guard entry.device == device else {
                    problem(.inserted, line.number, "entry \(entry.id) belongs to device \(entry.device), not \(device)")
                    continue
                }
                if let earlier = seen[entry.sequence] {
                    if earlier.mac == entry.mac {
                        problem(.duplicated, line.number, "#\(entry.sequence) already appears on line \(earlier.line)")
                    } else {
                        problem(.forked, line.number, "a second, different entry #\(entry.sequence) (first on line \(earlier.line))")
                    }
                    continue
                }
                seen[entry.sequence] = (entry.mac, line.number)
                if entry.sequence < expected {
                    if !reportedReorder {
                        problem(.reordered, line.number, "#\(entry.sequence) comes after #\(expected - 1): entries were moved")
                        reportedReorder = true
                    }
                } else if entry.sequence > expected {
                    let missing = (expected..<entry.sequence).filter { !present.contains($0) }
                    if missing.count < Int(entry.sequence - expected) && !reportedReorder {
                        problem(.reordered, line.number, "#\(entry.sequence) comes where #\(expected) should be: entries were moved")
                        reportedReorder = true
                    }
                    if !missing.isEmpty {
                        let range = missing.count == 1 ? "#\(missing[0])" : "#\(missing.first!)-#\(missing.last!)"
                        problem(.deleted, line.number, "\(range) missing before this line: \(missing.count) entr\(missing.count == 1 ? "y" : "ies") deleted")
                    }
                    expected = entry.sequence + 1
                    lastMAC = entry.mac!
                } else {
                    if entry.prev != lastMAC && !reportedReorder {
                        problem(.changed, line.number, "the chain is broken before #\(entry.sequence): its prev does not match the entry before it")
                    }
                    expected = entry.sequence + 1
                    lastMAC = entry.mac!
                }
                // Across files: one id, one content; one (device, sequence), one entry.
                let place = "\(path):\(line.number)"
                if let other = byID[entry.id] {
                    if !other.entry.hasSameContent(as: entry) {
                        problem(.duplicated, line.number, "id \(entry.id) is also at \(other.place) with other content")
                    }
                } else {
                    byID[entry.id] = (entry, place)
                    balance = try balance.adding(entry.amount)
                    if entry.kind == .topup { checkReceipt(entry, line: line.number, report: &report, problem: problem) }
                }
                if let other = bySequence[entry.device]?[entry.sequence], other.mac != entry.mac, other.place != place {
                    problem(.forked, line.number, "\(entry.device) #\(entry.sequence) differs from \(other.place)")
                }
                bySequence[entry.device, default: [:]][entry.sequence] = (entry.mac, place)
            }
            // The head: truncation and rollback show only against it.
            let lastSequence = expected - 1
            if let head = heads[device] {
                if let key = headPublicKey, !head.isValid(for: key) {
                    problem(.headInvalid, nil, "the signed head of \(device) does not verify with the ledger's public key")
                } else if head.sequence > lastSequence {
                    let count = head.sequence - lastSequence
                    problem(.truncated, lines.count, "the head says #\(head.sequence) but the file ends at #\(lastSequence): \(count) entr\(count == 1 ? "y was" : "ies were") cut off the end, or an older copy was restored")
                } else if head.sequence == lastSequence && head.mac != lastMAC {
                    problem(.changed, lines.count, "the last entry #\(lastSequence) is not the one the head signed: an older or other copy was restored")
                } else if head.sequence < lastSequence {
                    report.notes.append("\(path): the head is at #\(head.sequence), behind the file's #\(lastSequence); the entries after it verify in the chain (an interrupted write, or written by a copy of this device)")
                }
            } else if requireHeads.contains(device) {
                problem(.headMissing, nil, "there is no signed head for \(device), so truncation cannot be ruled out")
            }
            report.problems.append(contentsOf: problems)
        }
        report.devices = devices.sorted()
        report.balance = balance
        return report
    }

    private func checkReceipt(_ entry: LedgerEntry, line: Int, report: inout VerificationReport,
                              problem: (VerificationProblem.Kind, Int?, String) -> Void) {
        if entry.receipt == nil {
            if entry.id.hasPrefix("topup-simulated-") {
                report.simulatedTopUps += 1
            } else {
                problem(.receiptInvalid, line, "top-up \(entry.id) has no store receipt")
            }
            return
        }
        guard let receiptCheck else {
            problem(.receiptInvalid, line, "top-up \(entry.id) has a receipt, but no store root or secret is configured to check it")
            return
        }
        report.receiptsChecked += 1
        if let reason = receiptCheck(entry) {
            problem(.receiptInvalid, line, "top-up \(entry.id): \(reason)")
        }
    }
}
