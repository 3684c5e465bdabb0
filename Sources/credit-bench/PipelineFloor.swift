import CreditLedger
import Dispatch
import Platform

/// What a cold load costs before it parses anything: the file read from the page cache in 256 KiB chunks, every
/// line's MAC, and the first touch of as much fresh memory per line as a ``LedgerEntry`` takes, the file cut in two
/// at a line start and each half on its own thread. The cold load's distance from it is the parse, the id index
/// and the sums. Measured in a fresh process (`--pipeline-only`), as the load is, so that its memory is new.
struct PipelineFloor {
    /// Bytes read at a time, as the load reads.
    static let chunk = 256 * 1024
    /// What a line's MAC does not cover: `,"mac":"<64 hex digits>"}`.
    static let macSuffix = 74

    let path: String
    let key: [UInt8]

    /// One measurement: the wall and CPU time of reading, MACing and touching every line, and how many lines.
    func measure() throws -> (wall: Double, cpu: Double, lines: Int) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw BenchError("cannot open \(path)") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw BenchError("cannot read the size of \(path)") }
        let size = Int(info.st_size)
        let contexts = try (0..<2).map { _ in try HMACContext(key: key) }
        let start = Measure.now()
        let cpu0 = Measure.cpu()
        let middle = try lineStart(fd, atOrAfter: size / 2, size: size)
        // Room for the shortest lines there could be: pages never touched cost nothing.
        let room = (size / PipelineFloor.macSuffix + 1) * MemoryLayout<LedgerEntry>.stride
        let memory = UnsafeMutableRawPointer.allocate(byteCount: room, alignment: 64)
        defer { memory.deallocate() }
        let halves = [0..<middle, middle..<size]
        // Each thread writes its own slot: the lines it read, -1 when it could not.
        let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: 2)
        defer { counts.deallocate() }
        let shared = PipelineShared(contexts: contexts, memory: memory, slots: counts)
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            let lines = run(
                fd: fd, range: halves[half], context: shared.contexts[half], memory: shared.memory + room / 2 * half)
            shared.slots[half] = lines ?? -1
        }
        let wall = Measure.now() - start
        let cpu = Measure.cpu() - cpu0
        guard counts[0] >= 0, counts[1] >= 0 else {
            throw BenchError("\(path) has a line too long or too short for this floor")
        }
        if contexts.contains(where: { $0.check == 0xFF }) { log("") }  // keeps the MACs' results alive
        return (wall, cpu, counts[0] + counts[1])
    }

    /// The start of the first line at or after `offset`.
    private func lineStart(_ fd: Int32, atOrAfter offset: Int, size: Int) throws -> Int {
        guard offset > 0 else { return 0 }
        var window = [UInt8](repeating: 0, count: 64 * 1024)
        let count = window.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, off_t(offset - 1)) }
        guard count > 0, let newline = window[0..<count].firstIndex(of: 0x0A) else {
            throw BenchError("no line starts past the middle of \(path)")
        }
        return offset - 1 + newline + 1
    }

    /// Reads `range` of the file in chunks, MACs each line and writes an entry's worth of bytes for it; the lines
    /// read, nil when a line is longer than a chunk or shorter than its MAC.
    private func run(fd: Int32, range: Range<Int>, context: HMACContext, memory: UnsafeMutableRawPointer) -> Int? {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * PipelineFloor.chunk)
        defer { buffer.deallocate() }
        let stride = MemoryLayout<LedgerEntry>.stride
        var target = memory
        var offset = range.lowerBound
        var carried = 0
        var lines = 0
        while offset < range.upperBound {
            let count = pread(fd, buffer + carried, min(PipelineFloor.chunk, range.upperBound - offset), off_t(offset))
            guard count > 0 else { return nil }
            offset += count
            let length = carried + count
            var start = 0
            while let found = memchr(buffer + start, 0x0A, length - start) {
                let end = UnsafeRawPointer(buffer).distance(to: UnsafeRawPointer(found))
                guard end - start > PipelineFloor.macSuffix else { return nil }
                context.mac(buffer + start, count: end - start - PipelineFloor.macSuffix)
                memset(target, 1, stride)
                target += stride
                lines += 1
                start = end + 1
            }
            carried = length - start
            guard carried < PipelineFloor.chunk else { return nil }
            memmove(buffer, buffer + start, carried)
        }
        return carried == 0 ? lines : nil
    }
}

/// What the two threads share. `@unchecked Sendable`: each thread uses only its own context, its own half of the
/// memory and its own slot of the line counts, which are read after both end.
private struct PipelineShared: @unchecked Sendable {
    let contexts: [HMACContext]
    let memory: UnsafeMutableRawPointer
    let slots: UnsafeMutableBufferPointer<Int>
}
