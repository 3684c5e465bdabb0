import Platform

/// Reads the lines of part of a file a few megabytes at a time, so that loading a 300 MB ledger never holds the
/// whole file in memory: each line is handed over and forgotten.
package enum LineChunks {
    /// What a read found.
    package struct Outcome {
        /// The offset just past the last line handed over and accepted (where a bad or unfinished line starts).
        package var consumed: Int64
        /// Whether bytes without a final newline are left at the end.
        package var unterminated: Bool
    }

    /// Calls `body` with each newline-terminated line between `start` and `end` (without its newline) and the file
    /// offset just past that newline, until `body` returns false or the lines run out.
    package static func read(
        fd: Int32, path: String, from start: Int64, to end: Int64, chunkSize: Int = 4 << 20,
        _ body: (UnsafeBufferPointer<UInt8>, Int64) throws -> Bool
    ) throws -> Outcome {
        var capacity = Swift.max(4096, Swift.min(chunkSize, Int(end - start)))
        var buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var filled = 0
        var bufferOffset = start  // the file offset of buffer[0]
        var readOffset = start
        var end = end
        while true {
            if readOffset < end && filled < capacity {
                let wanted = Swift.min(capacity - filled, Int(end - readOffset))
                let count = pread(fd, buffer + filled, wanted, off_t(readOffset))
                if count < 0 {
                    if errno == EINTR { continue }
                    throw LedgerError.io(path: path, operation: "read", errno: errno)
                }
                if count == 0 {
                    end = readOffset  // the file is shorter than it was: read what is there
                } else {
                    filled += count
                    readOffset += Int64(count)
                }
            }
            let base = buffer.assumingMemoryBound(to: UInt8.self)
            var lineStart = 0
            while lineStart < filled, let found = memchr(base + lineStart, 0x0A, filled - lineStart) {
                let newline = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
                let line = UnsafeBufferPointer(start: base + lineStart, count: newline - lineStart)
                guard try body(line, bufferOffset + Int64(newline) + 1) else {
                    return Outcome(consumed: bufferOffset + Int64(lineStart), unterminated: false)
                }
                lineStart = newline + 1
            }
            if readOffset >= end {
                return Outcome(consumed: bufferOffset + Int64(lineStart), unterminated: lineStart < filled)
            }
            // Keep the unfinished line: at the front, or in a larger buffer when it fills this one.
            let rest = filled - lineStart
            if lineStart == 0 && rest == capacity {
                let larger = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2, alignment: 16)
                larger.copyMemory(from: buffer, byteCount: rest)
                buffer.deallocate()
                buffer = larger
                capacity *= 2
            } else if rest > 0 {
                memmove(buffer, buffer + lineStart, rest)
            }
            bufferOffset += Int64(lineStart)
            filled = rest
        }
    }

    /// The newlines between `start` and `end` of the file (fewer if it is shorter), read a quarter of a megabyte at a
    /// time; nil when a read fails.
    static func countNewlines(fd: Int32, from start: Int64, to end: Int64) -> Int? {
        let capacity = Swift.max(4096, Swift.min(256 << 10, Int(end - start)))
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var offset = start
        var total = 0
        while offset < end {
            let count = pread(fd, buffer, Swift.min(capacity, Int(end - offset)), off_t(offset))
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { break }
            // memchr from one newline to the next: lines are hundreds of bytes, and memchr's vector scan is
            // several times faster than a loop over the bytes.
            var at = UnsafeRawPointer(buffer)
            var left = count
            while left > 0, let found = memchr(at, 0x0A, left) {
                let next = UnsafeRawPointer(found) + 1
                left -= at.distance(to: next)
                at = next
                total += 1
            }
            offset += Int64(count)
        }
        return total
    }
}
