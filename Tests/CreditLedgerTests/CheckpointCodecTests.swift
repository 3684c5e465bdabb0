import Signing
import Testing

@testable import LedgerEntries

/// Issue 38: the checkpoint is read as bytes, line by line (its thousands of `reference` lines were 15 ms of every
/// open as substrings). What it reads is what was written; a line in another form than the writer's goes through
/// the general reader; anything changed, cut or out of form reads as no checkpoint.
@Suite struct CheckpointCodecTests {
    private static let key = Array(repeating: UInt8(7), count: 32)
    private static func mac(_ bytes: [UInt8]) -> [UInt8] {
        (try? HMACSHA256.authenticationCode(for: bytes, key: key)) ?? []
    }

    private static func stamp(_ name: String, size: Int64) -> LedgerCheckpoint.Stamp {
        LedgerCheckpoint.Stamp(
            name: name, deviceID: 2049, inode: 77, size: size, changedSeconds: 1_795_975_609,
            changedNanoseconds: 123_456_789, tail: String(repeating: "7d", count: 32))
    }

    private static var sample: LedgerCheckpoint {
        var ids = CheckpointIDs(count: 1_000, bytes: 8_008, tag: ChainDigest(hex: String(repeating: "ab", count: 32))!)
        ids.recent = [0x1, 0xFFFF_FFFF_FFFF_FFFF, 0x1234_5678_9ABC_DEF0]
        let chain = LedgerCheckpoint.Chain(
            lines: 1_000, lastSequence: 1_000, lastMAC: ChainDigest(hex: String(repeating: "cd", count: 32)),
            isSigned: true)
        return LedgerCheckpoint(
            device: "d3c0ffee-0000-4000-8000-000000000001", balance: -42_000,
            files: [
                LedgerCheckpoint.FileMark(
                    stamp: stamp("d3c0ffee-0000-4000-8000-000000000001.jsonl", size: 409_424), chain: chain),
                LedgerCheckpoint.FileMark(
                    stamp: stamp("other.jsonl", size: 0),
                    chain: LedgerCheckpoint.Chain(lines: 0, lastSequence: 0, lastMAC: nil, isSigned: nil)),
            ],
            heads: [stamp("d3c0ffee-0000-4000-8000-000000000001.json", size: 300)],
            references: [0, 1, 0xF, 0x10, 0xFFFF_FFFF_FFFF_FFFF]
                + (0..<2_000).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 },
            ids: ids)
    }

    @Test func whatIsWrittenIsReadBack() {
        let bytes = CheckpointCodecTests.sample.encoded(mac: CheckpointCodecTests.mac)
        #expect(LedgerCheckpoint.decode(bytes, mac: CheckpointCodecTests.mac) == CheckpointCodecTests.sample)
    }

    @Test func anyChangeOrCutReadsAsNoCheckpoint() {
        let bytes = CheckpointCodecTests.sample.encoded(mac: CheckpointCodecTests.mac)
        for index in stride(from: 0, to: bytes.count, by: 97) {
            var changed = bytes
            changed[index] ^= 0x01
            #expect(LedgerCheckpoint.decode(changed, mac: CheckpointCodecTests.mac) == nil, "byte \(index)")
        }
        for length in [0, 1, bytes.count / 2, bytes.count - 2, bytes.count - 1] {
            #expect(LedgerCheckpoint.decode(Array(bytes[0..<length]), mac: CheckpointCodecTests.mac) == nil)
        }
        #expect(LedgerCheckpoint.decode(bytes, mac: { _ in Array(repeating: 0, count: 32) }) == nil)
    }

    /// Signed lines in another form than the writer's: read by the general reader as before, or refused.
    @Test func aReferenceInAnotherFormIsReadByTheGeneralReaderOrRefused() {
        func signed(_ extra: String) -> [UInt8] {
            let text = Array(
                ("\(LedgerCheckpoint.header)\ndevice d1\nbalance 5\nids 0 8 " + String(repeating: "00", count: 32)
                    + "\n" + extra).utf8)
            return text + Array("mac \(Hex.encode(CheckpointCodecTests.mac(text)))\n".utf8)
        }
        #expect(LedgerCheckpoint.decode(signed("reference ff\n"), mac: CheckpointCodecTests.mac)?.references == [255])
        #expect(LedgerCheckpoint.decode(signed("reference FF\n"), mac: CheckpointCodecTests.mac)?.references == [255])
        #expect(LedgerCheckpoint.decode(signed(""), mac: CheckpointCodecTests.mac)?.references == [])
        let file = "file a.jsonl 1 2 3 4 5 " + String(repeating: "00", count: 32) + " 0 0 - -\n"
        #expect(
            LedgerCheckpoint.decode(signed(file + "marks 10:1 20:3\n"), mac: CheckpointCodecTests.mac)?.files.first?
                .lineMarks == [LineMark(offset: 10, line: 1), LineMark(offset: 20, line: 3)])
        for refused in [
            "marks 10:1\n", file + "marks 10:1 10:2\n", file + "marks 10:2 20:2\n", file + "marks 0:0\n",
            file + "marks 10-1\n", file + "marks\n", file + "marks 10:1\nmarks 20:2\n",
            "reference 1ffffffffffffffff\n", "reference \n", "reference ff gg\n", "reference xyz\n", "referencing 1\n",
            "\n",
        ] {
            #expect(LedgerCheckpoint.decode(signed(refused), mac: CheckpointCodecTests.mac) == nil, "\(refused)")
        }
    }
}
