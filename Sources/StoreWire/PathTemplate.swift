/// A path of the store's API with named parameters: `/inApps/v1/transactions/{id}/appAccountToken`.
///
/// It builds a path from parameter values (each percent-encoded, so a value is always one segment) and matches a
/// request's path segments, capturing the parameters, for the server's router.
public struct PathTemplate: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// One segment between slashes.
    public enum Segment: Sendable, Hashable {
        /// A fixed word.
        case literal(String)
        /// A value the caller gives, by its name.
        case parameter(String)
    }

    /// The segments after the leading slash.
    public let segments: [Segment]

    /// Reads `/a/{name}/b`: a segment in braces is a parameter.
    ///
    /// - Precondition: `text` starts with a slash and has no empty segment.
    public init(_ text: String) {
        precondition(text.hasPrefix("/"), "a path template starts with a slash: \(text)")
        segments = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { part in
            precondition(!part.isEmpty, "a path template has no empty segment: \(text)")
            if part.hasPrefix("{") && part.hasSuffix("}") { return .parameter(String(part.dropFirst().dropLast())) }
            return .literal(String(part))
        }
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// The names of the parameters, in order.
    public var parameterNames: [String] {
        segments.compactMap { segment in
            if case .parameter(let name) = segment { return name }
            return nil
        }
    }

    /// The path with `values` in the parameter segments, in order, each percent-encoded.
    ///
    /// - Precondition: as many values as the template has parameters.
    public func path(_ values: [String]) -> String {
        precondition(
            values.count == parameterNames.count,
            "\(self) takes \(parameterNames.count) parameter(s), given \(values.count)")
        var remaining = values[...]
        var path = ""
        for segment in segments {
            switch segment {
            case .literal(let word): path += "/" + word
            case .parameter: path += "/" + Self.percentEncoded(remaining.removeFirst())
            }
        }
        return path
    }

    /// The parameters captured when `pathSegments` (a request's path split at its slashes) is this template's, by
    /// name; `nil` when it is not. A parameter never matches an empty segment.
    public func match(_ pathSegments: [String]) -> [String: String]? {
        matchValues(pathSegments).map { Dictionary(uniqueKeysWithValues: zip(parameterNames, $0)) }
    }

    /// The values of the parameter segments, in order, when `pathSegments` is this template's; `nil` when it is
    /// not. A parameter never matches an empty segment.
    public func matchValues(_ pathSegments: [String]) -> [String]? {
        guard pathSegments.count == segments.count else { return nil }
        var values: [String] = []
        for (segment, actual) in zip(segments, pathSegments) {
            switch segment {
            case .literal(let word):
                guard word == actual else { return nil }
            case .parameter:
                guard !actual.isEmpty else { return nil }
                values.append(actual)
            }
        }
        return values
    }

    /// The template as written: `/inApps/v1/transactions/{id}`.
    public var description: String {
        segments.map { segment in
            switch segment {
            case .literal(let word): "/" + word
            case .parameter(let name): "/{" + name + "}"
            }
        }.joined()
    }

    /// `value` with every byte but RFC 3986's unreserved ones (ASCII letters, digits, `-`, `.`, `_`, `~`) as `%XX`;
    /// a value of dots only (`.`, `..`) has its dots encoded too, so no client takes it for a step up the path.
    static func percentEncoded(_ value: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        let dotsOnly = value.utf8.allSatisfy { $0 == UInt8(ascii: ".") }
        var bytes: [UInt8] = []
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(byte)
            case UInt8(ascii: ".") where !dotsOnly:
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
