import Foundation

/// What starting a store takes, whichever way it runs: its command line, its environment, and a scratch folder that
/// holds its Server API key (and a child process's standard error), removed when this is released.
final class StoreLaunch: Sendable {
    let arguments: [String]
    let environment: [String: String]
    let folder: String

    init(_ options: TestStore.Options, apiKey: ServerAPIKey) throws {
        folder = NSTemporaryDirectory() + "/mockstore-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var environment = options.processEnvironment ?? ProcessInfo.processInfo.environment
        // The options choose the data and the catalogue, never the test's environment by accident.
        environment["MOCKSTORE_DATA"] = nil
        if options.catalogue != nil { environment["MOCKSTORE_CATALOGUE"] = nil }
        var apiKeyFile: String?
        if options.bearerTokens == .ownKey {
            let file = folder + "/AuthKey_\(ServerAPIKey.keyID).p8"
            do {
                try apiKey.write(to: file)
            } catch {
                try? FileManager.default.removeItem(atPath: folder)
                throw TestStoreError.didNotStart(output: "cannot write its API key to \(file): \(error)")
            }
            apiKeyFile = file
        }
        self.environment = environment
        arguments = TestStore.arguments(options, environment: environment, apiKeyFile: apiKeyFile)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }
}
