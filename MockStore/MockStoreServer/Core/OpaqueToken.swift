import Signing

/// The store's opaque paging tokens (`revision`, `paginationToken`): base64url of a prefix that says what the
/// token is for, then its value, so that one endpoint's token is refused by another.
enum OpaqueToken {
    static func encode(_ prefix: String, _ value: String) -> String {
        Base64URL.encode(Array((prefix + value).utf8))
    }

    /// The value of a token made by ``encode(_:_:)`` with `prefix`, or nil for anything else.
    static func decode(_ prefix: String, _ token: String) -> Substring? {
        guard let bytes = Base64URL.decode(token), let text = String(validating: bytes, as: UTF8.self),
            text.hasPrefix(prefix)
        else { return nil }
        return text.dropFirst(prefix.count)
    }

    /// A non-negative number in a token made with `prefix`.
    static func number(_ prefix: String, _ token: String) -> Int64? {
        guard let value = decode(prefix, token).flatMap({ Int64($0) }), value >= 0 else { return nil }
        return value
    }
}
