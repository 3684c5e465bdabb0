import Foundation

/// Finds the default catalogue (``MockStoreOptions/defaultCataloguePath``) when `mockstore` is run from outside the
/// repository: in the working directory, else beside the executable or in any folder above it (the repository
/// holds the build folder the executable is in). A catalogue named by `--catalogue` or `MOCKSTORE_CATALOGUE` is
/// used as given.
public enum CatalogueLocator {
    /// The file to load for `path`: `path` itself unless it is the default and is not in the working directory.
    ///
    /// - Throws: ``StartupError`` naming every place looked in, when the default is nowhere.
    public static func locate(
        _ path: String, workingDirectory: String = FileManager.default.currentDirectoryPath,
        executable: String? = executablePath()
    ) throws(StartupError) -> String {
        guard path == MockStoreOptions.defaultCataloguePath else { return path }
        let places = candidates(workingDirectory: workingDirectory, executable: executable)
        if let found = places.first(where: { FileManager.default.fileExists(atPath: $0) }) {
            return found
        }
        throw StartupError(
            "no catalogue: \(path) is not in the working directory, beside mockstore, or in a folder above it "
                + "(looked for \(places.joined(separator: ", "))); give --catalogue FILE or set MOCKSTORE_CATALOGUE")
    }

    /// Where the default catalogue is looked for, in order.
    static func candidates(workingDirectory: String, executable: String?) -> [String] {
        let relative = MockStoreOptions.defaultCataloguePath
        var places = [URL(fileURLWithPath: workingDirectory + "/" + relative).standardizedFileURL.path]
        guard let executable else { return places }
        var folder = URL(fileURLWithPath: executable).deletingLastPathComponent().standardizedFileURL.path
        while true {
            let place = (folder == "/" ? "" : folder) + "/" + relative
            if !places.contains(place) { places.append(place) }
            guard folder != "/", !folder.isEmpty else { break }
            folder = URL(fileURLWithPath: folder).deletingLastPathComponent().standardizedFileURL.path
        }
        return places
    }

    /// The running executable, links resolved (`/proc/self/exe` on Linux).
    public static func executablePath() -> String? {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return resolved
        }
        return Bundle.main.executablePath
    }
}
