import DurableFiles

extension String {
    /// The directory part of a path: ``DurableFiles/Files/parent(of:)``.
    var parentPath: String { Files.parent(of: self) }

    /// The last component of a path: ``DurableFiles/Files/lastComponent(of:)``.
    var lastPathComponent: String { Files.lastComponent(of: self) }
}
