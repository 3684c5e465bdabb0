import Foundation
import OptionParsing
import Payments
import Signing
import StoreWire
import VoiceDebriefCredit

/// `credit store use mockstore --url URL (--root-certificate FILE | --secret-file FILE)`: top-ups through the mock
/// store.
struct UseMockStoreCommand: CreditCommand {
    /// The environment the mock store's receipts must come from, as `--environment` takes it.
    enum Environment: String, ChoiceWords {
        case sandbox, production

        var environment: AppStoreEnvironment { self == .production ? .production : .sandbox }
    }

    static let url = Option.string(.url, "URL", help: "the mock store's listening URL").required()
    static let rootCertificate = Option.string(.rootCertificate, "FILE", help: "its test root (DER or PEM), for ES256")
    static let secretFile = Option.string(.secretFile, "FILE", help: "the shared secret, for HS256")
    static let bundleId = Option.string(.bundleId, "ID", help: "the app's bundle id in its receipts")
    static let environment = Option.choice(
        .environment, Environment.self, help: "the one environment its receipts must come from (default sandbox)")

    static let configuration = CommandSpec(
        "mockstore", summary: "the mock store (a sandbox for test purchases)",
        options: [url.spec, rootCertificate.spec, secretFile.spec, bundleId.spec, environment.spec])

    let url: String
    let rootCertificate: String?
    let secretFile: String?
    let bundleId: String?
    let environment: Environment

    init(_ arguments: ParsedArguments) throws(UsageError) {
        url = try arguments.value(of: Self.url)
        rootCertificate = try arguments.value(of: Self.rootCertificate)
        secretFile = try arguments.value(of: Self.secretFile)
        bundleId = try arguments.value(of: Self.bundleId)
        environment = try arguments.value(of: Self.environment) ?? .sandbox
    }

    /// `--url` must be an http:// or https:// URL with a host; exactly one of the root and the secret is given.
    func validate() throws(UsageError) {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
            ["http", "https"].contains(scheme), parsed.host?.isEmpty == false
        else {
            throw .invalidValue("--url", url, isNot: "an http:// or https:// URL of the mock store")
        }
        if let port = Self.port(in: url), !(Int(port).map { (1...65_535).contains($0) } ?? false) {
            throw .invalidValue(
                "--url", url,
                isNot: "a URL the store can be reached at: a port is a number from 1 to 65535, not \(port)")
        }
        guard (rootCertificate == nil) != (secretFile == nil) else {
            throw UsageError("give exactly one of --root-certificate FILE or --secret-file FILE")
        }
    }

    /// The port `url` names, as written (Foundation's `port` gives one too long for an `Int` as none; where it
    /// stands in the text is kept); nil when it names none.
    static func port(in url: String) -> Substring? {
        URLComponents(string: url)?.rangeOfPort.map { url[$0] }
    }

    func run(_ context: Context) throws -> Int32 {
        let root = try rootCertificate.map { path -> [UInt8] in
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CreditFailure.cannotRead(path: path)
            }
            return Array(data)
        }
        let secret = try secretFile.map { path -> [UInt8] in
            // A secret others can read is refused, as the mock store refuses it.
            var bytes: [UInt8]
            do {
                bytes = try KeyFile.read(path)
            } catch let error as SigningError {
                throw CreditFailure.keyFile(error)
            }
            while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
            return bytes
        }
        do {
            let configuration = try StoreConfiguration.useMockStore(
                url: url, rootCertificate: root, secret: secret, bundleID: bundleId ?? VoiceDebriefStore.bundleID,
                environment: environment.environment, in: context.dataDirectory)
            if context.json {
                try printJSON(
                    StoreOutputs.Store(
                        store: StoreKind.mockstore.rawValue, url: url, signing: configuration.signing?.rawValue ?? "",
                        environment: configuration.receiptEnvironment.rawValue))
            } else {
                print(
                    "Store: the mock store at \(url). Top-ups now go through it; receipts are verified with "
                        + (configuration.signing == .es256 ? "the pinned root certificate" : "the shared secret")
                        + " and must come from \(configuration.receiptEnvironment).")
            }
        } catch let error as StoreConfigurationError {
            throw CreditFailure.storeConfiguration(error)
        }
        return CreditCLI.success
    }
}
