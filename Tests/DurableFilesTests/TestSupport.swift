import DurableFiles
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The shared temporary directory (TestSupport), under the name these suites use.
typealias ScratchDirectory = TemporaryDirectory

extension TemporaryDirectory {
    /// The names in the directory, dot files included.
    func names() throws -> [String] { try Files.list(path) }
}

/// The permission bits of what is at `path` (not following a link).
func permissions(of path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o7777
}

func contents(of path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { Array($0) }
}

func write(_ text: String, to path: String, mode: mode_t = 0o644) throws {
    try #require(
        FileManager.default.createFile(
            atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: Int(mode)]))
}
