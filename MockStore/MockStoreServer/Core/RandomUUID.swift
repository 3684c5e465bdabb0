import Foundation

/// Random (version 4) UUIDs from the system's generator (`getrandom`). Foundation's `UUID()` on Linux opens, reads
/// and closes `/dev/urandom` for each one: three system calls, twice in every purchase (the device stamp's nonce
/// and the notification's id).
@usableFromInline
enum RandomUUID {
    /// A new random UUID: 122 random bits, the version (4) and the RFC 4122 variant set, as `UUID()` makes.
    @usableFromInline
    static func make() -> UUID {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: 16)
        for half in 0..<2 {
            let word = generator.next() as UInt64
            for offset in 0..<8 { bytes[half * 8 + offset] = UInt8(truncatingIfNeeded: word >> (offset * 8)) }
        }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
