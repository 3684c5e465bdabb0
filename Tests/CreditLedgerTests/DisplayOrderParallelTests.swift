import CreditLedger
import Testing

@testable import LedgerEntries

/// Issue 11: the display order made in two halves on two threads (a large list) is the order one sort gives.
@Suite(.serialized) struct DisplayOrderParallelTests {
    /// Entries of several devices, many of them at the same instant, with an opening among them.
    private static func entries() -> [LedgerEntry] {
        var generator = SystemRandomNumberGenerator()
        let devices = ["d-c", "d-a", "d-b", "d-e", "d-d"]
        var sequences: [String: Int64] = [:]
        var list: [LedgerEntry] = []
        for index in 0..<3_000 {
            let device = devices[Int.random(in: 0..<devices.count, using: &generator)]
            sequences[device, default: 0] += 1
            let kind: EntryKind = index == 1_234 ? .opening : .charge
            list.append(
                LedgerEntry(
                    id: "id-\(index)", device: device, sequence: sequences[device]!,
                    time: Timestamp(milliseconds: 1_795_975_600_000 + Int64.random(in: 0..<400, using: &generator)),
                    kind: kind, feature: kind == .charge ? "transcript" : nil, subject: nil, quantity: 1,
                    amount: MicroCredits(kind == .opening ? 5_000_000 : -30_000),
                    balanceAfter: MicroCredits(Int64.random(in: 0..<5_000_000, using: &generator))))
        }
        return list
    }

    @Test func twoHalvesGiveTheOrderOfOneSort() {
        let list = Self.entries()
        let positions = (0..<UInt32(list.count)).filter { $0 % 7 != 3 }
        let saved = DisplayOrder.parallelThreshold
        let single = DisplayOrder.sorted(list, positions: positions)
        DisplayOrder.parallelThreshold = 2
        defer { DisplayOrder.parallelThreshold = saved }
        let halves = DisplayOrder.sorted(list, positions: positions)
        #expect(halves == single)
        #expect(list[single[0]].kind == .opening, "the opening first")
        // Devices in name order among entries of one instant and rank, as the single sort has them.
        #expect(Set(halves).count == positions.count)
    }
}
