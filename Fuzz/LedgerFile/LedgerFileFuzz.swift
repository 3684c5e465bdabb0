// libFuzzer target: a whole ledger file, loaded by Ledger (the optimized reader: chunks, torn tails) and checked by
// LedgerVerifier, against a plain line-by-line reading of the same bytes.
//
// Must hold for any bytes: no trap, no hang; the load either refuses the file naming a corrupt line (a bad line with
// a readable entry after it) or keeps exactly the readable lines before the first bad one (the rest is a torn tail,
// set aside), with the balance the plain reading gives; and `verify` never calls a file clean that holds a line
// whose MAC does not check with the key, an unreadable line, or a torn tail.
import Foundation
import LedgerEntries
import LedgerVerification
import Signing

let key: [UInt8] = Array("fuzz-ledger-key-0123456789abcdef".utf8)
let hmac = try! HMACSHA256(key: key)
let base =
    (FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory())
    + "/credit-fuzz-ledger-\(getpid())"
let device = "dev-0001"
let ledgerFile = base + "/ledger/" + device + ".jsonl"
let verifier = LedgerVerifier(macKey: key, headPublicKey: nil, receiptCheck: nil)

let cleanUp: Void = { atexit { try? FileManager.default.removeItem(atPath: base) } }()

func reset(with bytes: [UInt8]) {
    _ = cleanUp
    try? FileManager.default.removeItem(atPath: base)
    try! FileManager.default.createDirectory(atPath: base + "/ledger", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: base + "/device", contents: Data((device + "\n").utf8))
    _ = FileManager.default.createFile(atPath: ledgerFile, contents: Data(bytes))
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLedgerFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // The plain reading: whole lines, parsed one by one.
    let pieces = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    // The last piece is empty (after a final newline) or unterminated: never a whole line.
    let whole = Array(pieces.dropLast())
    let parsed = whole.map { try? EntryCodec.parse(Array($0)) }
    let firstBad = parsed.firstIndex { $0 == nil }
    let anyGoodAfterBad = firstBad.map { parsed[($0 + 1)...].contains { $0 != nil } } ?? false

    // 1. verify: never clean when a line is bad.
    reset(with: bytes)
    if let report = try? verifier.verify(files: [ledgerFile], heads: [:]) {
        var allValid = bytes.isEmpty || bytes.last == 0x0A
        for line in whole where allValid {
            guard let entry = try? EntryCodec.parse(Array(line)), let mac = entry.mac,
                let prefix = Array(line).withUnsafeBufferPointer({ EntryCodec.macCoveredPrefix(of: $0) }),
                let given = Hex.decode(mac)
            else {
                allValid = false
                break
            }
            allValid = ConstantTime.equals(
                hmac.authenticationCode(for: Array(line[line.startIndex..<(line.startIndex + prefix)])), given)
        }
        if report.isClean && !allValid { fatalError("verify called a file clean that holds a bad line") }
    }

    // 2. load (the fast reader): refuse a corrupt middle, or keep exactly what the strict reader reads before the
    // first bad line, with the balance over distinct ids.
    reset(with: bytes)
    let clock = FixedClock(Timestamp(milliseconds: 1_795_953_600_000))
    let kept = Array(parsed.prefix(firstBad ?? parsed.count)).compactMap { $0 }
    do {
        let ledger = try Ledger(directory: base, clock: clock, ids: SequentialIDs(prefix: "dev"), authenticator: nil)
        if anyGoodAfterBad { fatalError("loaded a file with a corrupt line before a readable entry") }
        if !kept.isEmpty {
            if ledger.entries != kept {
                fatalError(
                    "the loader kept \(ledger.entries.count) entries, the strict reader \(kept.count): \(ledger.entries.first { !kept.contains($0) }.map { "\($0)" } ?? "")"
                )
            }
            var seen: Set<String> = []
            var balance = MicroCredits.zero
            for entry in kept where seen.insert(entry.id).inserted {
                if let sum = try? balance.adding(entry.amount) { balance = sum }
            }
            if ledger.balance != balance {
                fatalError("balance \(ledger.balance.rawValue), the strict reader \(balance.rawValue)")
            }
        }
    } catch let error as LedgerError {
        guard case .corruptLine = error else { fatalError("unexpected refusal: \(error)") }
        if !anyGoodAfterBad { fatalError("refused a file whose bad lines are all at the end: \(error)") }
    } catch {
        fatalError("unexpected error: \(error)")
    }
    return 0
}
