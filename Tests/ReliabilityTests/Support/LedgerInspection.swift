import CreditLedger
import Foundation
import Testing

/// A data directory's ledger files, read independently of `Ledger` (so a bug in loading cannot hide itself): every
/// line must be whole (newline-terminated), parse, and each device's sequence must run 1, 2, 3… with no gap or
/// repeat; ids are counted once.
struct LedgerInspection {
    /// Every entry of every device file, in file order.
    var entries: [LedgerEntry] = []
    /// Structural problems: a line that does not parse, a missing newline, a sequence gap or repeat.
    var problems: [String] = []
    /// The balance over distinct ids.
    var balance: Int64 = 0
    /// Distinct entries by id (the first seen counts).
    var byID: [String: LedgerEntry] = [:]
    /// Files that were read.
    var files: [String] = []

    init(dataDirectory: String) throws {
        let ledger = dataDirectory + "/ledger"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: ledger)) ?? []).filter {
            $0.hasSuffix(".jsonl")
        }.sorted()
        for name in names {
            let path = ledger + "/" + name
            files.append(path)
            let bytes = Array(try #require(FileManager.default.contents(atPath: path), "cannot read \(path)"))
            inspect(bytes, path: path)
        }
    }

    init(bytes: [UInt8], path: String = "(bytes)") {
        inspect(bytes, path: path)
    }

    private mutating func inspect(_ bytes: [UInt8], path: String) {
        if bytes.isEmpty { return }
        if let last = bytes.last, last != 0x0A {
            problems.append("\(path): the last line has no newline")
        }
        var expected: [String: Int64] = [:]
        var number = 0
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast(bytes.last == 0x0A ? 1 : 0)
        {
            number += 1
            let entry: LedgerEntry
            do {
                entry = try EntryCodec.parse(Array(line))
            } catch {
                problems.append(
                    "\(path):\(number): does not parse (\(error.reason)): \(String(decoding: line.prefix(80), as: UTF8.self))"
                )
                continue
            }
            let next = expected[entry.device, default: 1]
            if entry.sequence != next {
                problems.append("\(path):\(number): \(entry.device) #\(entry.sequence) where #\(next) was expected")
            }
            expected[entry.device] = entry.sequence + 1
            entries.append(entry)
            if byID[entry.id] == nil {
                byID[entry.id] = entry
                balance += entry.amount.rawValue
            }
        }
    }

    var ids: Set<String> { Set(byID.keys) }
}

extension LedgerEntry {
    /// What must not change about an entry across a crash, a reload or a merge.
    var essence: String {
        "\(id)|\(kind.rawValue)|\(amount.rawValue)|\(feature ?? "")|\(subject ?? "")|\(quantity)|\(refersTo ?? "")|\(reference ?? "")"
    }
}
