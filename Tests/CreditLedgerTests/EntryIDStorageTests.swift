import Testing

@testable import LedgerEntries

/// Issue 38: a lowercase UUID id is held as 16 bytes, any other id as its String, and every way of reading an id
/// (the id itself, its hash, its match, its JSON) gives what the String would.
@Suite struct EntryIDStorageTests {
    private static let uuid = "2f1c7a0e-5b7d-4c1e-9a2f-3d4e5f607182"

    @Test func aLowercaseUUIDIsPackedAndReadBackExactly() {
        let held = EntryIDStorage(EntryIDStorageTests.uuid)
        guard case .uuid = held else {
            Issue.record("a lowercase UUID was kept as text")
            return
        }
        #expect(held.string == EntryIDStorageTests.uuid)
        for id in ["00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff"] {
            #expect(EntryIDStorage(id).string == id)
            guard case .uuid = EntryIDStorage(id) else {
                Issue.record("\(id) was kept as text")
                continue
            }
        }
    }

    /// Every digit lands in its own place: a UUID changed in any one digit packs to another value, and each reads
    /// back as itself (the runs of `8-4-4-4-12` are moved by fixed loads, one mistake in which would swap or drop
    /// digits).
    @Test func eachDigitOfAUUIDIsKeptInItsOwnPlace() {
        let base = Array(EntryIDStorageTests.uuid.utf8)
        let packed = EntryIDStorage(EntryIDStorageTests.uuid)
        for index in base.indices where base[index] != UInt8(ascii: "-") {
            for digit in Array("0123456789abcdef".utf8) where digit != base[index] {
                var changed = base
                changed[index] = digit
                let text = String(decoding: changed, as: UTF8.self)
                let held = changed.withUnsafeBytes { EntryIDStorage(ascii: $0) }
                #expect(held != packed, "digit \(index) changed to \(Character(Unicode.Scalar(digit)))")
                #expect(held.string == text)
                #expect(held.withBytes { Array($0) } == changed)
            }
        }
    }

    @Test func anythingElseIsKeptAsText() {
        let others = [
            EntryIDStorageTests.uuid.uppercased(), "opening", "refund-" + EntryIDStorageTests.uuid,
            "2f1c7a0e-5b7d-4c1e-9a2f-3d4e5f60718", "2f1c7a0e-5b7d-4c1e-9a2f-3d4e5f6071829",
            "2f1c7a0e_5b7d-4c1e-9a2f-3d4e5f607182", "2f1c7a0e-5b7d-4c1e-9a2f-3d4e5f60718g",
            "2f1c7a0e-5b7d-4c1e-9a2f-3d4e5f60718\u{e9}", "2f1c7a0e5b7d4c1e9a2f3d4e5f607182abcd",
        ]
        for id in others {
            let held = EntryIDStorage(id)
            #expect(held == .text(id), "\(id)")
            #expect(held.string == id)
        }
    }

    @Test func theReaderAndTheStringHoldAnIDTheSameWay() {
        for id in [EntryIDStorageTests.uuid, "opening", EntryIDStorageTests.uuid.uppercased()] {
            let read = Array(id.utf8).withUnsafeBytes { EntryIDStorage(ascii: $0) }
            #expect(read == EntryIDStorage(id), "\(id)")
        }
    }

    @Test func anEntrysIDHashMatchAndJSONAreThoseOfItsString() throws {
        for id in [EntryIDStorageTests.uuid, "opening", "topup-simulated-SIM-1"] {
            let entry = LedgerEntry(
                id: id, device: "d1", sequence: 1, time: Timestamp(milliseconds: 0), kind: .charge,
                amount: MicroCredits(-1), balanceAfter: MicroCredits(0))
            #expect(entry.id == id)
            #expect(entry.idHash == EntryIDIndex.hash(id))
            #expect(entry.stableIDHash == EntryIDIndex.stableHash(id))
            #expect(entry.hasID(id) && !entry.hasID(id + "x") && !entry.hasID(id.uppercased()))
            var other = entry
            other.id = id.uppercased()
            #expect(entry.hasSameID(as: other) == (id == id.uppercased()))
            #expect(entry.hasSameID(as: entry))
            var json: [UInt8] = []
            entry.appendID(to: &json)
            #expect(String(decoding: json, as: UTF8.self) == "\"\(id)\"")
            // Read back from its line, it is the same entry, its id held the same way.
            let line = EntryCodec.line(body: EntryCodec.body(of: entry), mac: nil).dropLast()
            #expect(try EntryCodec.parse(Array(line)) == entry)
        }
    }
}

extension EntryIDStorageTests {
    /// A million entries in memory are a million times this: the id's packed form costs no room the fields around
    /// it leave free.
    @Test func anEntryStaysAt184Bytes() {
        #expect(MemoryLayout<EntryIDStorage>.size == 17)
        #expect(MemoryLayout<LedgerEntry>.stride == 184)
    }
}
