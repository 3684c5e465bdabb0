import Foundation

/// The checkout of this package that `MockStoreTesting` was built from: found from the path of this source file, so a
/// test suite in another package that depends on this one (by path, or by URL in `.build/checkouts`) finds the
/// `mockstore` it can build and the catalogue it ships with no setting of its own.
enum Checkout {
    /// The checkout's root (the folder of its `Package.swift`); nil when the sources are no longer where they were
    /// built (a test binary moved to another machine).
    static let root: String? = {
        // This file is `<root>/MockStore/MockStoreTesting/Checkout.swift`.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().standardizedFileURL.path
        let manager = FileManager.default
        guard manager.fileExists(atPath: root + "/Package.swift"),
            manager.fileExists(atPath: root + "/MockStore/mockstore")
        else { return nil }
        return root
    }()

    /// Where a `mockstore` built in the checkout is, in the order they are tried: SwiftPM's debug and release
    /// builds, then the scratch path the mock store's guide builds it in.
    static func builtBinaries(in root: String) -> [String] {
        [".build/debug", ".build/release", ".build-mockstore/debug", ".build-mockstore/release"].map {
            root + "/" + $0 + "/mockstore"
        }
    }

    /// The catalogue the checkout ships (`Catalogue/Credit.storekit`), when it is there.
    static var catalogue: String? {
        guard let root else { return nil }
        let path = root + "/" + defaultCatalogue
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// The catalogue `mockstore` loads when given none, relative to its working directory.
    static let defaultCatalogue = "Catalogue/Credit.storekit"
}
