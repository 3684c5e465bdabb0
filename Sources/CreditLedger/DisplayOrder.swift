/// The display order of entries: time, then device, then sequence. Sorting a million entries by that tuple
/// compares device strings a few million times; sorting small fixed-size keys (the device as its rank among the
/// devices present) gives the same order several times faster.
enum DisplayOrder {
    private struct Key: Comparable {
        var time: Int64
        var device: UInt32
        var sequence: Int64
        var position: UInt32

        static func < (a: Key, b: Key) -> Bool {
            if a.time != b.time { return a.time < b.time }
            if a.device != b.device { return a.device < b.device }
            if a.sequence != b.sequence { return a.sequence < b.sequence }
            return a.position < b.position
        }
    }

    /// The positions of `entries` at `positions`, in display order.
    static func sorted(_ entries: [LedgerEntry], positions: [UInt32]) -> [Int] {
        entries.withUnsafeBufferPointer { list in
            sorted(positions) { (list[$0].time.milliseconds, list[$0].device, list[$0].sequence) }
        }
    }

    /// `positions` in display order, each one's (time, device, sequence) given by `key`.
    static func sorted(_ positions: [UInt32], key: (Int) -> (time: Int64, device: String, sequence: Int64)) -> [Int] {
        // Devices by rank: one dictionary look-up per run of entries from the same device.
        var ranks: [String: UInt32] = [:]
        var keys: [Key] = []
        keys.reserveCapacity(positions.count)
        var lastDevice = ""
        var lastRank: UInt32 = 0
        for position in positions {
            let (time, device, sequence) = key(Int(position))
            if device != lastDevice {
                lastDevice = device
                if let rank = ranks[device] {
                    lastRank = rank
                } else {
                    lastRank = UInt32(ranks.count)
                    ranks[device] = lastRank
                }
            }
            keys.append(Key(time: time, device: lastRank, sequence: sequence, position: position))
        }
        // Ranks in order of first appearance; the order wanted is the devices' own order.
        let byName = ranks.keys.sorted()
        var rename = [UInt32](repeating: 0, count: byName.count)
        for (order, device) in byName.enumerated() { rename[Int(ranks[device]!)] = UInt32(order) }
        for index in keys.indices { keys[index].device = rename[Int(keys[index].device)] }
        keys.sort()
        return keys.map { Int($0.position) }
    }
}
