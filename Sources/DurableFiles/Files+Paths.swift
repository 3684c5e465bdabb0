/// Path arithmetic on plain strings (the package passes paths as `String`).
extension Files {
    /// The directory part of a path ("." for a bare name, "/" for a root file).
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// The last component of a path.
    public static func lastComponent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// A fresh temporary name beside `path` for an atomic replace: `.<name>.tmp-<16 hex digits>` from the system's
    /// random source, so no other process (nor an attacker planting a link) can know it in advance.
    public static func temporaryPath(for path: String) -> String {
        var random = SystemRandomNumberGenerator()
        let digits = String(random.next(), radix: 16)
        let suffix = ".tmp-" + String(repeating: "0", count: 16 - digits.count) + digits
        guard let slash = path.lastIndex(of: "/") else { return "." + path + suffix }
        return String(path[...slash]) + "." + String(path[path.index(after: slash)...]) + suffix
    }
}
