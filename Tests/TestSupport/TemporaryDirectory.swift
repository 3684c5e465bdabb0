import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fresh directory under the system temporary directory (`mkdtemp`, so mode 0700), removed with everything in it
/// when released.
public final class TemporaryDirectory {
    /// The directory's absolute path.
    public let path: String

    /// Makes `<tmp>/<prefix>-XXXXXX`; `prefix` defaults to the calling test target's name, so a directory left
    /// behind says whose it is. `inMemory`: on /dev/shm when there is one (for suites whose fsyncs need not reach a
    /// disk).
    public init(_ prefix: String? = nil, inMemory: Bool = false, fileID: String = #fileID) throws {
        let name = prefix ?? String(fileID.prefix { $0 != "/" })
        let base =
            inMemory && FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let template = base + "/\(name)-XXXXXX"
        var bytes = Array(template.utf8CString)
        let made = bytes.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
        }
        guard let made else {
            throw SupportFailure("mkdtemp failed for \(template): \(String(cString: strerror(errno)))")
        }
        path = made
    }

    /// The same, with the prefix named.
    public convenience init(prefix: String, inMemory: Bool = false) throws {
        try self.init(Optional(prefix), inMemory: inMemory)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `path/name`.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `path/name` with `mode` and returns that path.
    @discardableResult
    public func write(_ text: String, to name: String, mode: Int = 0o644) throws -> String {
        let filePath = file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: filePath))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: filePath)
        return filePath
    }
}
