import Foundation
import Synchronization

/// What one suite did, for RELIABILITY.md: runs, faults injected, entries checked, failures. Each test adds its
/// figures; with `RELIABILITY_FIGURES=FILE` they are appended to FILE as one JSON line per test.
struct Figures: Sendable {
    var suite: String
    var test: String
    var runs = 0
    var faults = 0
    var entriesChecked = 0
    var failures = 0
    var started = Date()

    init(suite: String, test: String) {
        self.suite = suite
        self.test = test
    }

    /// Appends the figures to the figures file, if one is set.
    func record() {
        guard let path = Reliability.environment["RELIABILITY_FIGURES"], !path.isEmpty else { return }
        let object: [String: Any] = [
            "suite": suite, "test": test, "runs": runs, "faults": faults, "entriesChecked": entriesChecked,
            "failures": failures, "seconds": (Date().timeIntervalSince(started) * 10).rounded() / 10,
            "long": Reliability.isLong, "baseSeed": Reliability.baseSeed.seedText,
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        FiguresFile.append(data + [0x0A], to: path)
    }
}

/// Appends to the figures file from tests running in parallel, one line at a time.
enum FiguresFile {
    private static let lock = Mutex(())

    static func append(_ data: Data, to path: String) {
        lock.withLock { _ in
            if !FileManager.default.fileExists(atPath: path) {
                // A file not made shows as the open below failing.
                _ = FileManager.default.createFile(atPath: path, contents: nil)
            }
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            defer { try? handle.close() }
            _ = try? handle.seekToEnd()
            try? handle.write(contentsOf: data)
        }
    }
}
