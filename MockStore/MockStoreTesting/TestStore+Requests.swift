import Foundation
import StoreTransport
import StoreWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request to the store, JSON both ways: what every control goes through, and what a test calls an endpoint the
/// typed controls do not cover with (`try await store.send(DeviceAPI.unfinished)`).
extension TestStore {
    /// Sends `endpoint` with its `parameters` and no body, and decodes the answer; a refusal throws
    /// ``TestStoreError/refused(request:status:message:)`` with the store's own words.
    public func send<Answer: Decodable, Path>(_ endpoint: Endpoint<NoBody, Answer, Path>, _ parameters: Path)
        async throws -> Answer
    {
        try await decode(Answer.self, endpoint.method.rawValue, endpoint.target(parameters), body: NoBody?.none)
    }

    /// Sends `endpoint`, whose path has no parameters, with no body, and decodes the answer.
    public func send<Answer: Decodable>(_ endpoint: Endpoint<NoBody, Answer, NoParameters>) async throws -> Answer {
        try await send(endpoint, NoParameters())
    }

    /// Sends `endpoint` with its `parameters` and `body` (JSON), and decodes the answer; a refusal throws
    /// ``TestStoreError/refused(request:status:message:)``.
    public func send<Request: Encodable, Answer: Decodable, Path>(
        _ endpoint: Endpoint<Request, Answer, Path>, _ parameters: Path, body: Request
    ) async throws -> Answer {
        try await decode(Answer.self, endpoint.method.rawValue, endpoint.target(parameters), body: body)
    }

    /// Sends `endpoint`, whose path has no parameters, with `body` (JSON), and decodes the answer.
    public func send<Request: Encodable, Answer: Decodable>(
        _ endpoint: Endpoint<Request, Answer, NoParameters>, body: Request
    ) async throws -> Answer {
        try await send(endpoint, NoParameters(), body: body)
    }

    /// Sends `endpoint` with its `parameters` and no body, and gives the raw answer's bytes (a certificate, say) and
    /// its HTTP status; a refusal throws ``TestStoreError/refused(request:status:message:)``.
    public func exchange<Answer, Path>(_ endpoint: Endpoint<NoBody, Answer, Path>, _ parameters: Path) async throws
        -> (Data, Int)
    {
        try await exchange(endpoint.method.rawValue, endpoint.target(parameters))
    }

    /// Sends `endpoint`, whose path has no parameters, with no body, and gives the raw answer and its status.
    public func exchange<Answer>(_ endpoint: Endpoint<NoBody, Answer, NoParameters>) async throws -> (Data, Int) {
        try await exchange(endpoint, NoParameters())
    }

    /// GETs `path` (a declared endpoint's, with its query) and decodes the answer.
    func get<Answer: Decodable>(_: Answer.Type, _ path: String) async throws -> Answer {
        try await decode(Answer.self, "GET", path, body: NoBody?.none)
    }

    private func decode<Answer: Decodable>(
        _: Answer.Type, _ method: String, _ path: String, body: (some Encodable)?
    ) async throws -> Answer {
        let (data, status) = try await exchange(method, path, body: body)
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw TestStoreError.unreadableAnswer(request: "\(method) \(path) (\(status))", why: "\(error)")
        }
    }

    /// Sends `method path` and gives the raw answer's bytes (a certificate, say).
    private func exchange(_ method: String, _ path: String, body: (some Encodable)? = NoBody?.none) async throws -> (
        Data, Int
    ) {
        // The path as the endpoint built it, percent-encoding and all (appending it as a path component would
        // encode its `%` again).
        let base = url.absoluteString.hasSuffix("/") ? String(url.absoluteString.dropLast()) : url.absoluteString
        guard let target = URL(string: base + path) else {
            throw TestStoreError.refused(request: "\(method) \(path)", status: 0, message: "the path is not a URL")
        }
        var request = URLRequest(url: target)
        request.httpMethod = method
        if let body {
            request.httpBody = try JSONEncoder().encode(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        // Inside ``TestStore/acting(as:_:)``: the device API and the controls act for that customer.
        if let customer = Self.customer {
            request.setValue(customer, forHTTPHeaderField: MockCustomerHeader.name)
        }
        let (data, status) = try await http.answer(to: request) { $0 }
        guard (200..<300).contains(status) else {
            let message =
                (try? JSONDecoder().decode(StoreErrorBody.self, from: data))?.errorMessage
                ?? String(decoding: data.prefix(500), as: UTF8.self)
            throw TestStoreError.refused(request: "\(method) \(path)", status: status, message: message)
        }
        return (data, status)
    }
}
