/// Encoded `GET /storekit/v1/products` bodies, so a catalogue request does not run `JSONEncoder` each time.
///
/// A body is a function of the ids asked for, the currency of the storefront in force and the locale in force
/// (the catalogue itself never changes while the store runs): those are the key, so a test control that changes the
/// storefront or the locale finds, or makes, another body, and nothing ever needs invalidating.
final class ProductsBodyCache: Sendable {
    /// What a products body depends on besides the catalogue.
    struct Key: Hashable, Sendable {
        var ids: [String]
        var currency: String
        var locale: String
    }

    /// Requests with more ids than this (or longer ones) are answered but not kept: clients choose the ids.
    static let largestKeptRequest = 64
    static let longestKeptIds = 2_048
    /// Bodies kept at most; when full, the cache starts again (a client sending endless id lists cannot grow it).
    static let capacity = 256

    private let bodies = ReadMostly<[Key: [UInt8]]>([:])

    /// The body kept for `key`, if any.
    func body(for key: Key) -> [UInt8]? {
        bodies.read { $0[key] }
    }

    /// Keeps `body` for `key`, unless the key is too large to be worth keeping.
    func keep(_ body: [UInt8], for key: Key) {
        guard key.ids.count <= Self.largestKeptRequest,
            key.ids.reduce(0, { $0 + $1.utf8.count }) <= Self.longestKeptIds
        else { return }
        bodies.write { bodies in
            if bodies.count >= Self.capacity { bodies.removeAll() }
            bodies[key] = body
        }
    }

    /// How many bodies are kept (for tests).
    var count: Int { bodies.read { $0.count } }
}
