import Dispatch

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
package enum DisplayOrder {
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

    /// What the two sorting threads share. `@unchecked Sendable`: `key` only reads entries nothing changes
    /// meanwhile, and each thread writes only its own result slot, read after `concurrentPerform` has returned.
    private struct SharedForSort: @unchecked Sendable {
        let key: (Int) -> Facts
        let results: UnsafeMutablePointer<(keys: [Key], devices: [String])>
    }

    /// What the order is made from, for one entry.
    package struct Facts {
        var time: Int64
        var device: String
        var sequence: Int64
        var isOpening: Bool

        package init(time: Int64, device: String, sequence: Int64, isOpening: Bool) {
            self.time = time
            self.device = device
            self.sequence = sequence
            self.isOpening = isOpening
        }
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
    package static func sorted(
        _ positions: [UInt32], key: (Int) -> Facts, money: (Int) -> (amount: Int64, balanceAfter: Int64)
    ) -> [Int] {
        let keys = sortedKeys(positions, key: key)
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

    /// Below this many positions the keys are made and sorted on one thread. (Tests lower it to run small lists
    /// through the parallel path; any value gives the same order.)
    nonisolated(unsafe) static var parallelThreshold = 100_000

    /// The keys of `positions`, sorted. A large list in two halves, each keyed and sorted on its own thread (each
    /// with the ranks of the devices it holds), then the ranks made the whole list's (which keeps each half's
    /// order: the ranks of a subset of the names are in the same order as theirs in the whole) and the halves
    /// merged. The keys are all different (the position is in them), so this is the one order a single sort gives.
    private static func sortedKeys(_ positions: [UInt32], key: (Int) -> Facts) -> [Key] {
        guard positions.count >= parallelThreshold else {
            var keys = rankedKeys(positions[...], key: key).keys
            keys.sort()
            return keys
        }
        let middle = positions.count / 2
        let halves = [positions[..<middle], positions[middle...]]
        let results = UnsafeMutablePointer<(keys: [Key], devices: [String])>.allocate(capacity: 2)
        results.initialize(repeating: ([], []), count: 2)
        defer {
            results.deinitialize(count: 2)
            results.deallocate()
        }
        withoutActuallyEscaping(key) { key in
            // Read only: the closure reads the entries, which nothing changes meanwhile.
            let shared = SharedForSort(key: key, results: results)
            DispatchQueue.concurrentPerform(iterations: 2) { half in
                var made = rankedKeys(halves[half], key: shared.key)
                made.keys.sort()
                shared.results[half] = made
            }
        }
        let names = Array(Set(results[0].devices + results[1].devices)).sorted()
        var rank: [String: UInt32] = [:]
        for (index, name) in names.enumerated() { rank[name] = UInt32(index) }
        for half in 0..<2 {
            let rename = results[half].devices.map { rank[$0]! }
            results[half].keys.withUnsafeMutableBufferPointer { keys in
                for index in keys.indices { keys[index].device = rename[Int(keys[index].device)] }
            }
        }
        return merged(results[0].keys, results[1].keys)
    }

    /// Two sorted lists of keys as one.
    private static func merged(_ a: [Key], _ b: [Key]) -> [Key] {
        [Key](unsafeUninitializedCapacity: a.count + b.count) { out, initialized in
            a.withUnsafeBufferPointer { a in
                b.withUnsafeBufferPointer { b in
                    var i = 0
                    var j = 0
                    var k = 0
                    while i < a.count && j < b.count {
                        if b[j] < a[i] {
                            out[k] = b[j]
                            j += 1
                        } else {
                            out[k] = a[i]
                            i += 1
                        }
                        k += 1
                    }
                    while i < a.count {
                        out[k] = a[i]
                        i += 1
                        k += 1
                    }
                    while j < b.count {
                        out[k] = b[j]
                        j += 1
                        k += 1
                    }
                }
            }
            initialized = a.count + b.count
        }
    }

    /// Keys for `positions`, with each device as its rank in the devices' own (name) order; and those devices, by
    /// rank.
    private static func rankedKeys(_ positions: ArraySlice<UInt32>, key: (Int) -> Facts) -> (
        keys: [Key], devices: [String]
    ) {
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
        return (keys, byName)
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
