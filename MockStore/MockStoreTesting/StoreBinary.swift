import Foundation

/// Where the `mockstore` binary is: given, `$MOCKSTORE_BINARY`, beside the running test executable (SwiftPM puts
/// products and test bundles in one folder, `.build/debug`), built in the checkout `MockStoreTesting` came from
/// (``Checkout``), in a `.build/debug` or `.build/release` above the working directory, then on `PATH`. When it is
/// nowhere, it is built in that checkout (``CheckoutBuild``), once for the test process.
enum StoreBinary {
    static func find(_ given: String?) throws -> String {
        let places = candidates(given)
        if let found = places.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            return found
        }
        guard let root = Checkout.root else { throw TestStoreError.binaryNotFound(lookedIn: places) }
        return try CheckoutBuild.mockstore(in: root)
    }

    /// Every place looked in, in order.
    static func candidates(_ given: String?) -> [String] {
        var places: [String] = []
        if let given { places.append(given) }
        let environment = ProcessInfo.processInfo.environment
        if let named = environment["MOCKSTORE_BINARY"], !named.isEmpty { places.append(named) }
        places.append(executableDirectory() + "/mockstore")
        if let root = Checkout.root { places += Checkout.builtBinaries(in: root) }
        var directory = FileManager.default.currentDirectoryPath
        for _ in 0..<4 {
            places += [directory + "/.build/debug/mockstore", directory + "/.build/release/mockstore"]
            directory = (directory as NSString).deletingLastPathComponent
        }
        for folder in (environment["PATH"] ?? "").split(separator: ":") { places.append(folder + "/mockstore") }
        var seen: Set<String> = []
        return places.filter { seen.insert($0).inserted }
    }

    /// The folder of the running executable (on Darwin, the folder that holds `Foo.xctest`).
    private static func executableDirectory() -> String {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = (executable as NSString).deletingLastPathComponent
        if directory.hasSuffix("/Contents/MacOS") {
            for _ in 0..<3 { directory = (directory as NSString).deletingLastPathComponent }
        }
        return directory
    }
}
