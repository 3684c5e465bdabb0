import Foundation
import StoreWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request to the store, JSON both ways: what every control goes through.
extension TestStore {
    /// An empty JSON body, for controls that take none.
    struct NoBody: Codable, Sendable {}

    /// Sends `method path` with `body` (JSON) and decodes the answer as `Answer`; a refusal throws
    /// ``TestStoreError/refused(request:status:message:)`` with the store's own words.
    func send<Answer: Decodable>(
        _ method: String, _ path: String, body: (some Encodable)? = NoBody?.none, as: Answer.Type = Answer.self
    ) async throws -> Answer {
        let (data, status) = try await exchange(method, path, body: body)
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw TestStoreError.unreadableAnswer(request: "\(method) \(path) (\(status))", why: "\(error)")
        }
    }

    /// Sends `method path` and gives the raw answer's bytes (a certificate, say).
    func exchange(_ method: String, _ path: String, body: (some Encodable)? = NoBody?.none) async throws -> (
        Data, Int
    ) {
        var request = URLRequest(url: url.appendingPathComponent(String(path.dropFirst())))
        request.httpMethod = method
        request.timeoutInterval = 30
        if let body {
            request.httpBody = try JSONEncoder().encode(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        // Inside ``TestStore/acting(as:_:)``: the device API and the controls act for that customer.
        if let customer = Self.customer {
            request.setValue(customer, forHTTPHeaderField: MockCustomerHeader.name)
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            let message =
                (try? JSONDecoder().decode(StoreErrorBody.self, from: data))?.errorMessage
                ?? String(decoding: data.prefix(500), as: UTF8.self)
            throw TestStoreError.refused(request: "\(method) \(path)", status: status, message: message)
        }
        return (data, status)
    }
}
