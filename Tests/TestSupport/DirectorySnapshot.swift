import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Everything under a directory as it is now, for a test that shows a refusal left it untouched.
public enum DirectorySnapshot {
    /// Every entry under `root` (`root` included, no link followed): by path, its type, permission bits and owner,
    /// a file's bytes (as UTF-8), a link's target.
    public static func take(_ root: String) -> [String: String] {
        var result: [String: String] = [:]
        func walk(_ path: String) {
            var info = stat()
            guard lstat(path, &info) == 0 else { return }
            let type = info.st_mode & S_IFMT
            var text = "\(type) \(String(info.st_mode & 0o7777, radix: 8)) \(info.st_uid)"
            if type == S_IFREG {
                text += " " + String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
            }
            if type == S_IFLNK {
                text += " -> " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?")
            }
            result[path] = text
            if type == S_IFDIR, let names = try? FileManager.default.contentsOfDirectory(atPath: path) {
                for name in names.sorted() { walk(path + "/" + name) }
            }
        }
        walk(root)
        return result
    }
}
