import CreditLedger
import Foundation
func cpu() -> Double { var u = rusage(); getrusage(RUSAGE_SELF.rawValue, &u); return Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) / 1e6 + Double(u.ru_stime.tv_sec) + Double(u.ru_stime.tv_usec) / 1e6 }

// Temporary probe: generate and cold-load.
let n = Int(CommandLine.arguments.dropFirst().first ?? "100000")!
let dir = "/tmp/bench-probe-\(n)"
if !FileManager.default.fileExists(atPath: dir) {
    let start = Date()
    let ledger = try Ledger.openSigned(directory: dir, clock: FixedClock(Timestamp(milliseconds: 1_760_000_000_000), step: 1000), ids: RandomIDs())
    let features = ["transcript", "debrief", "readNote", "saveToVault", "send", "pushVault", "cleanPassage"]
    var made = 1
    while made < n {
        var batch: [EntryDraft] = []
        for i in 0..<min(10_000, n - made) {
            let f = features[(made + i) % features.count]
            batch.append(EntryDraft(id: UUID().uuidString.lowercased(), kind: .charge, feature: f, subject: "note-\((made + i) / 5)", quantity: 1, amount: MicroCredits(-10_000)))
        }
        try ledger.appendBatch(batch)
        made += batch.count
    }
    print("generated \(n) in \(Date().timeIntervalSince(start))s")
}
let t0 = Date(); let c0 = cpu()
let ledger = try Ledger(directory: dir, authenticator: nil)
print("cold load \(ledger.entries.count) entries: \(Date().timeIntervalSince(t0))s cpu \(cpu() - c0) balance \(ledger.balance)")
var usage = rusage()
getrusage(RUSAGE_SELF.rawValue, &usage)
print("maxrss \(usage.ru_maxrss / 1024) MB")
do {
    let path = try FileManager.default.contentsOfDirectory(atPath: dir + "/ledger").first { $0.hasSuffix(".jsonl") }!
    let data = try Array(Data(contentsOf: URL(fileURLWithPath: dir + "/ledger/" + path)))
    var t = Date()
    var lines: [Range<Int>] = []
    data.withUnsafeBufferPointer { b in
        var s = 0
        while s < b.count {
            let p = memchr(b.baseAddress! + s, 0x0A, b.count - s)!
            let e = b.baseAddress!.distance(to: p.assumingMemoryBound(to: UInt8.self))
            lines.append(s..<e)
            s = e + 1
        }
    }
    print("split \(lines.count): \(Date().timeIntervalSince(t))")
    t = Date(); let c1 = cpu()
    var sum: Int64 = 0
    try data.withUnsafeBufferPointer { b in
        for r in lines {
            let e = try EntryCodec.parse(UnsafeBufferPointer(rebasing: b[r]))
            sum &+= e.amount.rawValue
        }
    }
    print("parse: \(Date().timeIntervalSince(t)) cpu \(cpu() - c1) \(sum)")
}
