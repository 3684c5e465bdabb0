/// Entry ids to positions in an array of entries: an open-addressing hash table of 8-byte slots (a 32-bit
/// position and 32 bits of the id's hash), about a sixth of the memory of a `[String: Int]` and several times
/// faster to fill, because an id's bytes are hashed once and compared only when the stored hash bits match.
///
/// The table holds positions, not ids: the caller keeps the entries and says, through `matches`, whether the entry
/// at a position has the id looked for. The hash is seeded per process, so no file can be crafted to make every
/// id collide.
package struct EntryIDIndex {
    // Usable from inline: find, insert and slotValue are inlined into other targets' loops (the verifier, the merge).
    /// 0 = empty; otherwise `hash >> 32 << 32 | (position + 1)`.
    @usableFromInline var slots: [UInt64] = []
    @usableFromInline var mask = 0
    @usableFromInline package internal(set) var count = 0

    package init(capacity: Int = 0) {
        if capacity > 0 { reserve(capacity) }
    }

    /// Makes room for `capacity` ids without growing.
    package mutating func reserve(_ capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        guard size > slots.count else { return }
        rebuild(size: size)
    }

    /// The position stored for an id with `hash` for which `matches` holds, or nil.
    @inlinable @inline(__always)
    package func find(hash: UInt64, matches: (Int) -> Bool) -> Int? {
        guard !slots.isEmpty else { return nil }
        let tag = hash & 0xFFFF_FFFF_0000_0000
        return slots.withUnsafeBufferPointer { table in
            var slot = Int(truncatingIfNeeded: hash) & mask
            while true {
                let value = table[slot]
                if value == 0 { return nil }
                if value & 0xFFFF_FFFF_0000_0000 == tag {
                    let position = Int(value & 0xFFFF_FFFF) - 1
                    if matches(position) { return position }
                }
                slot = (slot + 1) & mask
            }
        }
    }

    /// Stores `position` for an id with `hash` unless one for which `matches` holds is there already; returns
    /// that one's position, or nil when `position` was stored.
    @inlinable @inline(__always)
    package mutating func insert(_ position: Int, hash: UInt64, matches: (Int) -> Bool) -> Int? {
        precondition(position >= 0 && position < Int(UInt32.max), "too many entries for the index")
        if (count + 1) * 2 > slots.count { rebuild(size: Swift.max(16, slots.count * 2)) }
        let tag = hash & 0xFFFF_FFFF_0000_0000
        let mask = self.mask
        let found: Int? = slots.withUnsafeMutableBufferPointer { table in
            var slot = Int(truncatingIfNeeded: hash) & mask
            while true {
                let value = table[slot]
                if value == 0 {
                    table[slot] = tag | UInt64(position + 1)
                    return nil
                }
                if value & 0xFFFF_FFFF_0000_0000 == tag {
                    let existing = Int(value & 0xFFFF_FFFF) - 1
                    if matches(existing) { return existing }
                }
                slot = (slot + 1) & mask
            }
        }
        if found == nil { count += 1 }
        return found
    }

    /// Makes the id with `hash` stored at `old` refer to `new` instead (the copy that counts changed); nothing when
    /// `old` is not stored.
    package mutating func replace(_ old: Int, with new: Int, hash: UInt64) {
        guard !slots.isEmpty else { return }
        let tag = hash & 0xFFFF_FFFF_0000_0000
        let mask = self.mask
        slots.withUnsafeMutableBufferPointer { table in
            var slot = Int(truncatingIfNeeded: hash) & mask
            while table[slot] != 0 {
                if table[slot] == tag | UInt64(old + 1) {
                    table[slot] = tag | UInt64(new + 1)
                    return
                }
                slot = (slot + 1) & mask
            }
        }
    }

    /// The slot an id with `hash` starts at, read (to bring it into the cache ahead of an insert).
    @inlinable @inline(__always)
    package func slotValue(hash: UInt64) -> UInt64 {
        slots.isEmpty ? 0 : slots.withUnsafeBufferPointer { $0[Int(truncatingIfNeeded: hash) & mask] }
    }

    /// Does nothing; called on a value computed from ``slotValue(hash:)`` so that those reads are not optimised
    /// away.
    @inline(never)
    package func noteTouched() {}

    mutating func removeAll() {
        slots = []
        mask = 0
        count = 0
    }

    @usableFromInline mutating func rebuild(size: Int) {
        let old = slots
        slots = []
        slots = [UInt64](unsafeUninitializedCapacity: size) { buffer, initialized in
            buffer.initialize(repeating: 0)
            initialized = size
        }
        mask = size - 1
        slots.withUnsafeMutableBufferPointer { table in
            for value in old where value != 0 {
                // The low bits of the hash are gone; the tag's are spread enough to place by.
                var slot = Int(truncatingIfNeeded: EntryIDIndex.mix(value >> 32)) & mask
                while table[slot] != 0 { slot = (slot + 1) & mask }
                table[slot] = value
            }
        }
    }

    // MARK: hashing

    private static let seed: UInt64 = UInt64.random(in: 1...UInt64.max)

    /// The hash of an id's UTF-8 bytes. Its slot comes from the high 32 bits (also kept as the tag), so a table
    /// can be rebuilt from its slots alone.
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 { hash(bytes, seed: seed) }

    /// The hash of an id's UTF-8 bytes under `seed`: the index's own (random per process), or the fixed one of
    /// ``stableHash(_:)``.
    @inline(__always)
    private static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        var state = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
        var offset = 0
        if let base = bytes.baseAddress {
            while offset + 8 <= bytes.count {
                state = round(state, base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            if offset < bytes.count {
                var tail: UInt64 = 0
                var shift: UInt64 = 0
                while offset < bytes.count {
                    tail |= UInt64(base.load(fromByteOffset: offset, as: UInt8.self)) << shift
                    shift += 8
                    offset += 1
                }
                state = round(state, tail)
            }
        }
        let high = mix(state) & 0xFFFF_FFFF_0000_0000
        return high | (mix(high >> 32) & 0xFFFF_FFFF)
    }

    /// The hash of `id`.
    package static func hash(_ id: String) -> UInt64 { hash(id, seed: seed) }

    /// The hash of `id` under a fixed seed, the same in every process: what the checkpoint keeps of each id
    /// (``CheckpointIDs``). Two ids with one hash only send the counter to a full read.
    static func stableHash(_ id: String) -> UInt64 { hash(id, seed: stableSeed) }

    /// ``stableHash(_:)`` of an id's UTF-8 bytes.
    static func stableHash(_ bytes: UnsafeRawBufferPointer) -> UInt64 { hash(bytes, seed: stableSeed) }

    private static let stableSeed: UInt64 = 0x6A09_E667_F3BC_C908

    @inline(__always)
    private static func hash(_ id: String, seed: UInt64) -> UInt64 {
        if let value = id.utf8.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0), seed: seed) }) {
            return value
        }
        return Array(id.utf8).withUnsafeBytes { hash($0, seed: seed) }
    }

    @inline(__always)
    private static func round(_ state: UInt64, _ word: UInt64) -> UInt64 {
        let product = (state ^ word).multipliedFullWidth(by: 0xBF58_476D_1CE4_E5B9)
        return product.high ^ product.low
    }

    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        var x = value
        x ^= x >> 33
        x &*= 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        x &*= 0xC4CE_B9FE_1A85_EC53
        x ^= x >> 33
        return x
    }
}
