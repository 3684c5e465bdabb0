/// Why a `.storekit` catalogue could not be used: the file and what is wrong where.
public struct CatalogueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file (or the name given to the data).
    public var file: String
    /// Where in the file, e.g. `products[1].localizations[0]`, or `line 3, column 7`; empty for the whole file.
    public var location: String
    /// What is wrong there.
    public var problem: String

    public init(file: String, location: String = "", problem: String) {
        self.file = file
        self.location = location
        self.problem = problem
    }

    public var description: String {
        location.isEmpty ? "\(file): \(problem)" : "\(file): \(location): \(problem)"
    }
}
