/// A store configuration that cannot be used, explained in words for the user (never a source location).
public enum StoreConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `store.json` is not a configuration.
    case unreadable(path: String, detail: String)
    /// `store.json` names a store this version does not know.
    case unknownStore(path: String, store: String)
    /// The mock store's URL is not an http(s) URL with a host.
    case invalidURL(String)
    /// Neither a root certificate nor a secret was given.
    case noReceiptVerification
    case emptySecret
    case unreadableCertificate(String)
    case unreadableSecret(String)
    /// The configuration names the mock store but no URL.
    case missingURL
    /// The pinned root certificate file is gone.
    case missingRoot(path: String)
    case unknownSigning(String)
    /// An environment receipts cannot be required to come from (only Sandbox and Production can be).
    case unsupportedEnvironment(String)
    /// A file of the configuration could not be written.
    case fileSystem(String)

    /// A file-system failure, described (for the atomic writer of the configuration's files).
    init(_ description: String) { self = .fileSystem(description) }

    public var description: String {
        switch self {
        case .unreadable(let path, let detail): return "\(path) cannot be read: \(detail)"
        case .unknownStore(let path, let store): return "\(path): unknown store \"\(store)\""
        case .invalidURL(let url): return "--url must be an http URL such as http://127.0.0.1:8080, not \"\(url)\""
        case .noReceiptVerification:
            return "say how to verify the store's receipts: --root-certificate FILE or --secret-file FILE"
        case .emptySecret: return "the secret file is empty"
        case .unreadableCertificate(let detail): return "the store's root certificate cannot be read: \(detail)"
        case .unreadableSecret(let detail): return "the store's shared secret cannot be read: \(detail)"
        case .missingURL: return "the mock store has no URL"
        case .missingRoot(let path): return "the pinned root certificate \(path) is missing"
        case .unknownSigning(let signing): return "unknown receipt signing \"\(signing)\" in store.json"
        case .unsupportedEnvironment(let name):
            return "receipts can be required to come from Sandbox or Production, not \"\(name)\""
        case .fileSystem(let detail): return detail
        }
    }
}
