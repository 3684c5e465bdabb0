import Foundation
import StoreWire

/// An HTTP response a handler gives back: a status, headers (including `Content-Type`) and a body.
public struct HTTPResponse: Equatable, Sendable {
    /// Exactly `application/json`, without a charset: Apple's client reads an error's code only then.
    public static let jsonContentType = "application/json"

    public var status: Int
    public var headers: [HTTPHeader]
    public var body: [UInt8]

    public init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first header called `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// `value` as JSON with `Content-Type: application/json`.
    public static func json<Body: Encodable>(_ value: Body, status: Int = 200) -> HTTPResponse {
        do {
            return HTTPResponse(
                status: status, headers: [HTTPHeader("Content-Type", jsonContentType)], body: try encode(value))
        } catch {
            return self.error(
                status: 500, code: StoreErrorCode.generalInternal, message: "The response could not be encoded.")
        }
    }

    /// `{"errorCode": code, "errorMessage": message}` with `Content-Type: application/json`.
    public static func error(status: Int, code: StoreErrorCode, message: String) -> HTTPResponse {
        let body = StoreErrorBody(errorCode: code, errorMessage: message)
        // Encoding two plain fields cannot fail; the fallback keeps the shape if it ever did.
        let bytes = (try? encode(body)) ?? Array(#"{"errorCode":5000000,"errorMessage":"Internal error."}"#.utf8)
        return HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", jsonContentType)], body: bytes)
    }

    /// The JSON the store writes: sorted keys, slashes not escaped (JWS and URLs stay readable).
    public static func encode<Body: Encodable>(_ value: Body) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }
}
