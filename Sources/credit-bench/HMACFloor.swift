import COpenSSL
import Dispatch
import Platform

/// The bytes every line's MAC covers in a ledger file, and the time OpenSSL's HMAC-SHA256 takes over them and
/// nothing else: the floor a read that checks every MAC cannot go below.
struct HMACFloor {
    let bytes: [UInt8]
    /// Where each line starts and how many bytes its MAC covers (all but `,"mac":"<64 hex>"}`).
    let lines: [(start: Int, covered: Int)]

    /// The floor over `bytes`, a ledger file's.
    init(bytes: [UInt8]) {
        self.bytes = bytes
        var lines: [(start: Int, covered: Int)] = []
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < buffer.count, let found = memchr(buffer.baseAddress! + start, 0x0A, buffer.count - start) {
                let end = UnsafeRawPointer(buffer.baseAddress!).distance(to: UnsafeRawPointer(found))
                lines.append((start, end - start - 74))
                start = end + 1
            }
        }
        self.lines = lines
    }

    /// The median over `runs` of the time to MAC every line, the lines split evenly between `threads` threads, each
    /// with its own reused `EVP_MAC_CTX` under `key`.
    func measure(key: [UInt8], threads: Int, runs: Int) throws -> Double {
        let contexts = try (0..<threads).map { _ in try HMACContext(key: key) }
        var times: [Double] = []
        let work = FloorWork(floor: self, contexts: contexts)
        for _ in 0..<runs {
            let start = Measure.now()
            if threads == 1 {
                work.mac(lines: 0..<lines.count, with: 0)
            } else {
                DispatchQueue.concurrentPerform(iterations: threads) { thread in
                    work.mac(
                        lines: (work.count * thread / threads)..<(work.count * (thread + 1) / threads), with: thread)
                }
            }
            times.append(Measure.now() - start)
        }
        if contexts.contains(where: { $0.check == 0xFF }) { log("") }  // keeps the loop's results alive
        return Measure.median(times)
    }
}

/// What the MAC threads share. `@unchecked Sendable`: the bytes are only read, and each thread uses only its own
/// context.
private struct FloorWork: @unchecked Sendable {
    let floor: HMACFloor
    let contexts: [HMACContext]

    var count: Int { floor.lines.count }

    func mac(lines range: Range<Int>, with context: Int) {
        floor.bytes.withUnsafeBufferPointer { buffer in
            floor.lines.withUnsafeBufferPointer { lines in
                contexts[context].mac(lines: lines[range], in: buffer.baseAddress!)
            }
        }
    }
}

/// One `EVP_MAC_CTX` for HMAC-SHA256 under a key, reused for every message.
final class HMACContext {
    private let mac: OpaquePointer
    private let context: OpaquePointer
    /// A byte of every MAC made, folded together (so that none is optimised away).
    private(set) var check: UInt8 = 0

    init(key: [UInt8]) throws {
        guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else { throw BenchError("EVP_MAC_fetch failed") }
        guard let context = EVP_MAC_CTX_new(mac) else {
            EVP_MAC_free(mac)
            throw BenchError("EVP_MAC_CTX_new failed")
        }
        self.mac = mac
        self.context = context
        var digest = Array("SHA256".utf8CString)
        let initialised = digest.withUnsafeMutableBufferPointer { name -> Int32 in
            var parameters = [
                OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, name.baseAddress, 0),
                OSSL_PARAM_construct_end(),
            ]
            return key.withUnsafeBufferPointer { EVP_MAC_init(context, $0.baseAddress, $0.count, &parameters) }
        }
        guard initialised == 1 else { throw BenchError("EVP_MAC_init failed") }
    }

    deinit {
        EVP_MAC_CTX_free(context)
        EVP_MAC_free(mac)
    }

    /// The MAC of each of `lines` (where it starts in `bytes`, and how many bytes), one after the other.
    func mac(lines: Slice<UnsafeBufferPointer<(start: Int, covered: Int)>>, in bytes: UnsafePointer<UInt8>) {
        for line in lines { mac(bytes + line.start, count: line.covered) }
    }

    /// The MAC of the `count` bytes at `bytes`; its first byte is folded into ``check``.
    func mac(_ bytes: UnsafePointer<UInt8>, count: Int) {
        var output = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &output) { out in
            let target = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var length = 0
            EVP_MAC_init(context, nil, 0, nil)
            EVP_MAC_update(context, bytes, count)
            EVP_MAC_final(context, target, &length, 32)
            check ^= target[0]
        }
    }
}
