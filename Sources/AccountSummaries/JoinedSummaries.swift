import DurableFiles
import Foundation

/// Verified summaries joined into one newline-delimited file, a line each: `{"file": PATH, "summary": ITS JSON}`,
/// the summary's own bytes with each line break made a space (JSON has them only between tokens, never inside a
/// string, so the value is unchanged). What `analytics/pnl.py` hands DuckDB and Spark: one file reads far faster than
/// a hundred thousand small ones, and since `credit-summary-verify --joined` writes the bytes it checked, what the
/// engines total is exactly what was verified.
///
/// The file is new (never one already there, never through a link), readable by its owner only, and written a
/// mebibyte at a time.
public final class JoinedSummaries {
    public let path: String
    private let files: any FileSystem
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var closed = false

    /// Creates `path`, which must not exist.
    public init(creating path: String, files: any FileSystem = SystemFileSystem()) throws {
        self.path = path
        self.files = files
        descriptor = try files.open(path, .replace, permissions: 0o600)
    }

    deinit {
        if !closed { files.close(descriptor) }
    }

    /// Adds the summary in `file`, whose bytes are `bytes`, as its line.
    public func append(file: String, bytes: [UInt8]) throws {
        Self.appendLine(file: file, bytes: bytes, to: &buffer)
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Appends to `out` the line of `bytes`, the summary in `file`.
    private static func appendLine(file: String, bytes: [UInt8], to out: inout [UInt8]) {
        // A string always encodes as JSON.
        let name = (try? JSONEncoder().encode(file)) ?? Data("\"\"".utf8)
        out.reserveCapacity(out.count + name.count + bytes.count + 32)
        out += #"{"file": "#.utf8
        out += name
        out += #", "summary": "#.utf8
        for byte in bytes { out.append(byte == 0x0A || byte == 0x0D ? 0x20 : byte) }
        out += "}\n".utf8
    }

    /// Writes what is held, makes it durable and closes the file.
    public func finish() throws {
        try flush()
        try files.syncData(descriptor, path: path)
        files.close(descriptor)
        closed = true
    }

    private func flush() throws {
        try buffer.withUnsafeBytes { try files.writeAll(descriptor, $0, path: path) }
        buffer.removeAll(keepingCapacity: true)
    }
}
