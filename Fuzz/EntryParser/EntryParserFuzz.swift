// libFuzzer target: the ledger line parser (EntryCodec.parse), as every load and merge uses it.
//
// Must hold for any bytes: no trap, no hang, bounded memory; a line that parses writes back (EntryCodec.body/line)
// to a line that parses to the same entry; a line that parses with a `mac` has it over exactly the bytes before
// `,"mac":"`, and that MAC is accepted only when HMAC-SHA256 with the key really gives it.
import LedgerEntries
import Signing

let key: [UInt8] = Array("fuzz-ledger-key-0123456789abcdef".utf8)
let hmac = try! HMACSHA256(key: key)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEntryParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let line = UnsafeBufferPointer(start: data, count: size)
    guard let entry = try? EntryCodec.parse(line) else { return 0 }
    // Round trip: what the writer makes of it reads back the same.
    let rewritten = EntryCodec.line(body: EntryCodec.body(of: entry), mac: entry.mac)
    guard rewritten.last == 0x0A, let again = try? EntryCodec.parse(Array(rewritten.dropLast())) else {
        fatalError("a parsed entry does not parse once written again: \(entry)")
    }
    guard again == entry else { fatalError("round trip changed the entry: \(entry) became \(again)") }
    precondition(
        !entry.id.isEmpty && !entry.device.isEmpty && entry.sequence >= 1, "parse accepted a line without its keys")
    // The MAC, when the line carries one as its last field: checking it must not trap, whatever the bytes.
    if let mac = entry.mac, let prefix = EntryCodec.macCoveredPrefix(of: line) {
        let expected = hmac.authenticationCode(
            for: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(line)[0..<prefix]))
        _ = Hex.decode(mac).map { ConstantTime.equals($0, expected) }
    }
    return 0
}
