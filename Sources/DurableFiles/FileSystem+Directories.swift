import Platform

/// The calls through a directory's descriptor, for a layer that implements only the path calls: each is made by the
/// directory's path, through the layer, so a test's faults and its record of what is durable still see every write.
/// (Such a layer is a test's; ``SystemFileSystem`` implements them through the descriptor.) Then the atomic
/// replaces made in a directory held open.
extension FileSystem {
    public func open(_ name: String, in directory: DirectoryHandle, _ mode: OpenMode, permissions: mode_t) throws
        -> Int32
    {
        try DirectoryHandle.checkName(name, in: directory)
        return try open(directory.path(of: name), mode, permissions: permissions)
    }

    public func rename(_ source: String, to target: String, in directory: DirectoryHandle) throws {
        try DirectoryHandle.checkName(source, in: directory)
        try DirectoryHandle.checkName(target, in: directory)
        try rename(directory.path(of: source), to: directory.path(of: target))
    }

    public func linkNew(_ source: String, as target: String, in directory: DirectoryHandle) throws {
        try DirectoryHandle.checkName(source, in: directory)
        try DirectoryHandle.checkName(target, in: directory)
        try linkNew(directory.path(of: source), as: directory.path(of: target))
    }

    public func removeFile(_ name: String, in directory: DirectoryHandle) {
        guard (try? DirectoryHandle.checkName(name, in: directory)) != nil else { return }
        removeFile(directory.path(of: name))
    }

    public func makeDirectory(_ name: String, in directory: DirectoryHandle, permissions: mode_t) throws {
        try DirectoryHandle.checkName(name, in: directory)
        try makeDirectory(directory.path(of: name), permissions: permissions)
    }

    public func syncDirectory(_ directory: DirectoryHandle) throws {
        try syncDirectory(directory.path)
    }

    /// Reads through the descriptor: a read changes nothing a layer keeps track of.
    public func readFile(_ name: String, in directory: DirectoryHandle, limit: Int) throws -> [UInt8] {
        try directory.readAll(name, limit: limit)
    }

    /// ``replaceAtomically(_:with:mode:syncingDirectory:)`` of `name` in `directory`: the temporary made, synced and
    /// renamed there, and `directory` synced, all through its descriptor. The same crash points, in the same order.
    public func replaceAtomically(
        _ name: String, in directory: DirectoryHandle, with bytes: [UInt8], mode: mode_t = 0o600,
        syncingDirectory: Bool = true
    ) throws {
        let temporary = try writeTemporary(for: name, in: directory, bytes: bytes, mode: mode, syncing: true)
        try CrashPoints.hit("replace.before-rename")
        do {
            try rename(temporary, to: name, in: directory)
        } catch {
            removeFile(temporary, in: directory)
            throw error
        }
        try CrashPoints.hit("replace.before-directory-sync")
        if syncingDirectory { try syncDirectory(directory) }
    }

    /// ``replaceUnsynced(_:with:mode:)`` of `name` in `directory`, through its descriptor.
    public func replaceUnsynced(
        _ name: String, in directory: DirectoryHandle, with bytes: [UInt8], mode: mode_t = 0o600
    )
        throws
    {
        let temporary = try writeTemporary(for: name, in: directory, bytes: bytes, mode: mode, syncing: false)
        do {
            try rename(temporary, to: name, in: directory)
        } catch {
            removeFile(temporary, in: directory)
            throw error
        }
    }

    /// A new temporary beside `name` in `directory` (an unpredictable name, made exclusively with `mode`) holding
    /// `bytes`, synced when `syncing`; removed again when anything fails. Returns its name.
    private func writeTemporary(
        for name: String, in directory: DirectoryHandle, bytes: [UInt8], mode: mode_t, syncing: Bool
    ) throws -> String {
        try DirectoryHandle.checkName(name, in: directory)
        let temporary = Files.temporaryPath(for: name)
        let fd = try open(temporary, in: directory, .replace, permissions: mode)
        let shown = directory.path(of: temporary)
        do {
            try bytes.withUnsafeBytes { try writeAll(fd, $0, path: shown) }
            if syncing {
                try CrashPoints.hit("replace.before-sync")
                try sync(fd, path: shown)
            }
        } catch {
            close(fd)
            removeFile(temporary, in: directory)
            throw error
        }
        close(fd)
        return temporary
    }
}
