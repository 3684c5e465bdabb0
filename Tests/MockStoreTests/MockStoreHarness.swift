import Foundation
import MockStoreCommand
import MockStoreServer
import MockStoreTesting
import StoreWire
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A mock store with its own data directory (in the test's process unless a test is about the binary: ``StoreRun``),
/// started by the test library (``TestStore``: a free port,
/// `--exit-with-parent`, its start and stop waited for holding no thread), with URLSession requests that check each
/// error is one its endpoint declares on top. The store's test controls are ``testStore``'s typed calls. Always
/// stopped: by the test (``stop(signal:)``) or, failing that, when the harness is released. A test that changes
/// nothing of the store's own takes a customer of its own on a store the tests share instead
/// (``withShared(catalogue:_:)``).
final class MockStoreHarness: Sendable {
    typealias Failure = SupportFailure

    /// What a finished run printed and how it ended.
    typealias Outcome = ProcessResult

    /// The built binary: `$MOCKSTORE_BINARY`, else `mockstore` next to the test executable (the scratch path's
    /// debug folder).
    static func binaryPath() throws -> String { try Binaries.require("mockstore") }

    /// The test library's store: typed controls, and waiting for what the store records.
    let testStore: TestStore
    /// Where the store keeps its state; nil: in memory (the shared stores).
    let dataDirectory: String?
    var port: UInt16 { testStore.port }
    let baseURL: String
    /// The customer every request of the harness acts for (`X-Mock-Customer`); nil: the store's default customer.
    let customer: String?

    private init(_ store: TestStore, dataDirectory: String?, customer: String? = nil) {
        testStore = store
        self.dataDirectory = dataDirectory
        self.customer = customer
        baseURL = "http://127.0.0.1:\(store.port)"
    }

    /// Starts `mockstore --port 0 --data dataDirectory --catalogue <repo catalogue> extraArguments`, in this process
    /// unless `run` says the binary, and waits for its listening line.
    static func start(
        dataDirectory: String, extraArguments: [String] = [], catalogue: String = Repository.catalogue,
        run: StoreRun = .inProcess
    ) async throws -> MockStoreHarness {
        do {
            var options = try options(catalogue: catalogue, run: run)
            options.dataDirectory = dataDirectory
            options.arguments = extraArguments
            return MockStoreHarness(try await TestStore.start(options), dataDirectory: dataDirectory)
        } catch {
            throw Failure("\(error)")
        }
    }

    /// Runs `body` as a new customer of its own on the store the tests share for `catalogue` (default flags, in
    /// memory; started on first use, stopped with the test process by `--exit-with-parent`): for a test that only
    /// buys, reads and refunds for its own customer and changes nothing of the store's own (no flag, failure, clock,
    /// restart, receiver, exit status). The harness's requests send that customer (`X-Mock-Customer`) and every typed
    /// call of ``testStore`` inside `body` acts for them. Never stop it.
    static func withShared<Result>(
        catalogue: String = Repository.catalogue, _ body: (MockStoreHarness) async throws -> Result
    ) async throws -> Result {
        let store = try await SharedMockStores.shared.store(catalogue)
        let customer = try await store.addNewCustomer(prefix: "h")
        let harness = MockStoreHarness(store, dataDirectory: nil, customer: customer)
        return try await store.acting(as: customer) { try await body(harness) }
    }

    /// Options for a store of the harness, run as `run` says, with bearer tokens checked as the binary alone does.
    fileprivate static func options(catalogue: String, run: StoreRun = .inProcess) throws -> TestStore.Options {
        var options = TestStore.Options()
        options.catalogue = catalogue
        try options.run(run)
        // These tests check bearer tokens as the binary alone does: no key of the library's own.
        options.bearerTokens = .withoutOwnKey
        return options
    }

    /// What the store wrote to stderr so far.
    var stderr: String { testStore.standardError }

    /// Sends `signal` and waits for the exit status (SIGKILL after 20 s).
    @discardableResult
    func stop(signal: Int32 = SIGTERM) async throws -> Int32 {
        _ = testStore.canTake(signal)
        return await testStore.stop(signal: signal)
    }

    /// Whether the process is still running (it must survive bad requests).
    var isRunning: Bool { testStore.isRunning }

    /// `mockstore arguments` in this process, for a start that ends before serving (its help, a mistake, a store that
    /// cannot start): what the binary would print and its exit status (a store that does start is stopped at once;
    /// the binary's own start-up is ``run(_:timeout:)``'s, in the tests of its exit statuses).
    static func startInProcess(_ arguments: [String]) async throws -> Outcome {
        let environment = ProcessInfo.processInfo.environment
        let (outcome, running) = MockStoreProcess.start(arguments: arguments, environment: environment)
        let stopped = running.map { MockStoreProcess.stopped($0, signal: SIGTERM) }
        return Outcome(
            status: stopped?.status ?? outcome.status, signaled: false, stdout: outcome.stdout,
            stderr: outcome.stderr + (stopped?.words ?? ""))
    }

    /// Runs `mockstore arguments` to completion (for usage and start-up failures).
    static func run(_ arguments: [String], timeout: TimeInterval = 30) async throws -> Outcome {
        let outcome = try await ChildProcess.run(
            try binaryPath(), arguments, environment: ProcessInfo.processInfo.environment, timeout: timeout)
        if outcome.timedOut {
            throw Failure(description: "mockstore \(arguments) did not exit within \(timeout) s; killed")
        }
        return outcome
    }

    // MARK: HTTP

    /// A response: status, `Content-Type` exactly as sent, body.
    struct Response {
        var status: Int
        var contentType: String?
        var body: [UInt8]

        func decoded<Body: Decodable>(_ type: Body.Type) throws -> Body {
            do {
                return try JSONDecoder().decode(type, from: Data(body))
            } catch {
                throw Failure(description: "body is not \(type): \(String(decoding: body, as: UTF8.self))")
            }
        }
    }

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 20
        return URLSession(configuration: configuration)
    }()

    func request(
        _ method: String, _ path: String, body: [UInt8]? = nil, headers: [String: String] = [:]
    ) async throws -> Response {
        var request = URLRequest(url: try #require(URL(string: baseURL + path)))
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let customer {
            request.setValue(customer, forHTTPHeaderField: MockCustomerHeader.name)
        }
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let (data, response) = try await Self.session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        let undeclared = http.value(forHTTPHeaderField: MockStoreRouter.undeclaredErrorHeader)
        #expect(undeclared == nil, "\(method) \(path) answered error \(undeclared ?? "") its endpoint does not declare")
        return Response(
            status: http.statusCode, contentType: http.value(forHTTPHeaderField: "Content-Type"), body: Array(data))
    }

    func get(_ path: String) async throws -> Response {
        try await request("GET", path)
    }

    func post(_ path: String, json: String) async throws -> Response {
        try await request("POST", path, body: Array(json.utf8))
    }

    /// Runs `mockstore control --url <this store> arguments` to completion, in this process (what the binary would
    /// print and its exit status; the binary's own tests run it as a process): for the tests of the control command
    /// line itself (its words, exit codes and output); every other test uses ``testStore``'s typed calls.
    func control(_ arguments: String...) async throws -> Outcome {
        try await Self.controlInProcess(["control", "--url", baseURL] + arguments)
    }

    /// `mockstore arguments` (a control) run in this process, on a thread of its own: it waits on the network.
    static func controlInProcess(_ arguments: [String]) async throws -> Outcome {
        let environment = ProcessInfo.processInfo.environment
        let outcome = await withCheckedContinuation { (done: CheckedContinuation<ControlInvocation.Outcome, Never>) in
            Thread { done.resume(returning: MockStoreProcess.control(arguments: arguments, environment: environment)) }
                .start()
        }
        return Outcome(status: outcome.status, signaled: false, stdout: outcome.stdout, stderr: outcome.stderr)
    }

    /// Runs a control that must succeed and decodes its JSON answer (the control command line's own tests).
    func control<Body: Decodable>(
        _ type: Body.Type, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Body {
        let outcome = try await Self.controlInProcess(["control", "--url", baseURL] + arguments)
        #expect(outcome.status == 0, "control \(arguments) failed: \(outcome.stderr)", sourceLocation: sourceLocation)
        do {
            return try JSONDecoder().decode(type, from: Data(outcome.stdout.utf8))
        } catch {
            throw Failure(description: "control \(arguments) printed no \(type): \(outcome.stdout) \(outcome.stderr)")
        }
    }
}

/// The stores the harness's tests share, one per catalogue, each started once (``MockStoreHarness/withShared(catalogue:_:)``):
/// a store per test was most of the processes the unit suite started (issue 34).
/// Each takes Server API tokens signed by ``ServerAPIToken/shared`` (`--api-key`), and has no other flag.
private actor SharedMockStores {
    static let shared = SharedMockStores()
    private var started: [String: Task<TestStore, any Error>] = [:]
    private var keyDirectory: TemporaryDirectory?

    func store(_ catalogue: String) async throws -> TestStore {
        if let task = started[catalogue] { return try await task.value }
        let directory = try keyDirectory ?? TemporaryDirectory("mockstore-shared")
        keyDirectory = directory
        var options = try MockStoreHarness.options(catalogue: catalogue)
        options.arguments = try ServerAPIToken.shared.option(in: directory)
        let task = Task<TestStore, any Error> { [options] in try await TestStore.start(options) }
        started[catalogue] = task
        return try await task.value
    }
}

/// Whether `body` was refused by the store (a ``TestStoreError/refused(request:status:message:)``): the status and
/// the store's words, or nil when it succeeded.
func refusal<Answer>(_ body: () async throws -> Answer) async throws -> (status: Int, message: String)? {
    do {
        _ = try await body()
        return nil
    } catch TestStoreError.refused(_, let status, let message) {
        return (status, message)
    }
}

/// Checks an error answer of the store: status, `Content-Type` exactly `application/json`, error code.
func expectError(
    _ response: MockStoreHarness.Response, status: Int, code: StoreErrorCode,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    #expect(response.status == status, sourceLocation: sourceLocation)
    #expect(response.contentType == "application/json", sourceLocation: sourceLocation)
    #expect(try response.decoded(StoreErrorBody.self).errorCode == code, sourceLocation: sourceLocation)
}
