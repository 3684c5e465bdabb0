/// The small files the layers above keep beside `store.json` in a data directory (the pending purchases), replaced
/// atomically by the same routine as the store's own.
public enum StoreFiles {
    /// Replaces the file at `path` with `bytes`: a temporary file, fsync, rename, directory fsync.
    public static func replace(_ bytes: [UInt8], at path: String, mode: Int = 0o644) throws {
        try FileAtomic.write(bytes, to: path, mode: mode)
    }
}
