import Signing
import Synchronization

/// The subscription offer keys a test registered (`POST /test/v1/offer-keys`) and the signature nonces already
/// used: a promotional offer signature is good for one purchase, as Apple's are.
///
/// Kept in memory for the life of the process (`reset` and `clear` keep them; a restarted store needs its keys
/// again), as Xcode keeps its Subscription Offers Key with the configuration, not with the transactions.
final class PromotionalOfferKeys: Sendable {
    private struct State {
        var keys: [String: P256PublicKey] = [:]
        var usedNonces: Set<String> = []
    }

    private let state = Mutex(State())

    /// Registers `key` under `id`, replacing a key of that id.
    func register(_ key: P256PublicKey, id: String) {
        state.withLock { $0.keys[id] = key }
    }

    /// The key registered under `id`.
    func key(id: String) -> P256PublicKey? {
        state.withLock { $0.keys[id] }
    }

    /// The ids registered, sorted.
    var ids: [String] {
        state.withLock { $0.keys.keys.sorted() }
    }

    /// Marks `nonce` used: `false` when it was used already.
    func use(nonce: String) -> Bool {
        state.withLock { $0.usedNonces.insert(nonce).inserted }
    }
}
