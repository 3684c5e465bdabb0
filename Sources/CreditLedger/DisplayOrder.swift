/// The display order of entries: the opening that counts first, then time, then device, then sequence; and where
/// several devices' entries have the same time, the order their own balances say they were written in.
///
/// The opening is first whatever its time: it is where every running balance starts, so a history drawn from any
/// other entry shows balances that never were. Entries of one time from several devices (a fixed clock, or two
/// devices in the same millisecond) cannot be ordered by time: each device's keep their sequence, and the next one
/// shown is one whose recorded balance is the running balance plus its amount, which is what it was written after
/// (see `causal`).
///
/// Sorting a million entries by the tuple compares device strings a few million times; sorting small fixed-size
/// keys (the device as its rank among the devices present) gives the same order several times faster.
enum DisplayOrder {
    /// (The fields in this order pack into 32 bytes; the order they compare in is `<`'s.)
    private struct Key: Comparable {
        var time: Int64
        var sequence: Int64
        var device: UInt32
        var position: UInt32
        /// 0 for the opening, 1 for everything else: the opening sorts first.
        var rank: UInt32

        static func < (a: Key, b: Key) -> Bool {
            if a.rank != b.rank { return a.rank < b.rank }
            if a.time != b.time { return a.time < b.time }
            if a.device != b.device { return a.device < b.device }
            if a.sequence != b.sequence { return a.sequence < b.sequence }
            return a.position < b.position
        }
    }

    /// What the order is made from, for one entry.
    struct Facts {
        var time: Int64
        var device: String
        var sequence: Int64
        var isOpening: Bool
    }

    /// The positions of `entries` at `positions`, in display order.
    static func sorted(_ entries: [LedgerEntry], positions: [UInt32]) -> [Int] {
        entries.withUnsafeBufferPointer { list in
            sorted(
                positions,
                key: {
                    Facts(
                        time: list[$0].time.milliseconds, device: list[$0].device, sequence: list[$0].sequence,
                        isOpening: list[$0].kind == .opening)
                },
                money: { (list[$0].amount.rawValue, list[$0].balanceAfter.rawValue) })
        }
    }

    /// `positions` in display order, each one's facts given by `key`, its amount and recorded balance by `money`
    /// (read only where devices' entries share a time).
    static func sorted(
        _ positions: [UInt32], key: (Int) -> Facts, money: (Int) -> (amount: Int64, balanceAfter: Int64)
    ) -> [Int] {
        var keys = rankedKeys(positions, key: key)
        keys.sort()
        var order = keys.map { Int($0.position) }
        // Runs of one time across devices, each put in the order the entries' own balances say.
        var summed = 0
        var running: Int64 = 0
        var start = 0
        while start < keys.count {
            var end = start + 1
            var mixed = false
            while end < keys.count, keys[end].time == keys[start].time, keys[end].rank == keys[start].rank {
                if keys[end].device != keys[start].device { mixed = true }
                end += 1
            }
            if mixed {
                while summed < start {
                    running &+= money(order[summed]).amount
                    summed += 1
                }
                causal(
                    &order, from: start, to: end, running: running, devices: keys[start..<end].map(\.device),
                    money: money)
            }
            start = end
        }
        return order
    }

    /// Keys for `positions`, with each device as its rank in the devices' own (name) order.
    private static func rankedKeys(_ positions: [UInt32], key: (Int) -> Facts) -> [Key] {
        // Devices by rank: one dictionary look-up per run of entries from the same device.
        var ranks: [String: UInt32] = [:]
        var keys: [Key] = []
        keys.reserveCapacity(positions.count)
        var lastDevice = ""
        var lastRank: UInt32 = 0
        for position in positions {
            let facts = key(Int(position))
            if facts.device != lastDevice {
                lastDevice = facts.device
                if let rank = ranks[facts.device] {
                    lastRank = rank
                } else {
                    lastRank = UInt32(ranks.count)
                    ranks[facts.device] = lastRank
                }
            }
            keys.append(
                Key(
                    time: facts.time, sequence: facts.sequence, device: lastRank, position: position,
                    rank: facts.isOpening ? 0 : 1))
        }
        // Ranks in order of first appearance; the order wanted is the devices' own order.
        let byName = ranks.keys.sorted()
        var rename = [UInt32](repeating: 0, count: byName.count)
        for (order, device) in byName.enumerated() { rename[Int(ranks[device]!)] = UInt32(order) }
        for index in keys.indices { keys[index].device = rename[Int(keys[index].device)] }
        return keys
    }

    /// Reorders `order[from..<to]` (one time, several devices; sorted by device, then sequence, so each device's
    /// entries are together and in sequence): each device's entries keep their order, and the next one taken is the
    /// first whose recorded balance is `running` plus its amount (it was written after exactly what is shown
    /// before it), else the first device's next. `running` is the balance before the run.
    private static func causal(
        _ order: inout [Int], from: Int, to: Int, running: Int64, devices: [UInt32],
        money: (Int) -> (amount: Int64, balanceAfter: Int64)
    ) {
        // Each device's entries, as a range of the run.
        var queues: [(next: Int, end: Int)] = []
        var index = 0
        while index < devices.count {
            var end = index + 1
            while end < devices.count, devices[end] == devices[index] { end += 1 }
            queues.append((index, end))
            index = end
        }
        let run = Array(order[from..<to])
        var balance = running
        var out = from
        while out < to {
            var chosen: Int?
            for (queue, range) in queues.enumerated() where range.next < range.end {
                let facts = money(run[range.next])
                if facts.balanceAfter == balance &+ facts.amount {
                    chosen = queue
                    break
                }
                if chosen == nil { chosen = queue }  // the fallback: the first device with entries left
            }
            guard let queue = chosen else { break }
            let position = run[queues[queue].next]
            queues[queue].next += 1
            order[out] = position
            out += 1
            balance &+= money(position).amount
        }
    }
}
