import Foundation

/// StoreKit 2's `Storefront` (https://developer.apple.com/documentation/storekit/storefront): an App Store country
/// or region, the one the customer is in now (``current``, ``updates``) or the one a purchase was made in
/// (`Transaction.storefront`). Two storefronts are equal when their country and id are.
public struct Storefront: Identifiable, Equatable, Hashable, Sendable {
    /// ISO 3166-1 alpha-3, e.g. `GBR`.
    public let countryCode: String
    /// Apple's storefront id, e.g. `143444`.
    public let id: String
    /// The currency the storefront uses (StoreKit's since iOS 17), e.g. GBP: given for the customer's storefront
    /// (``current``, ``updates``); nil for a transaction's, whose currency is the transaction's own `currency`.
    public let currency: Locale.Currency?

    init(countryCode: String, id: String, currency: Locale.Currency? = nil) {
        self.countryCode = countryCode
        self.id = id
        self.currency = currency
    }

    public static func == (lhs: Storefront, rhs: Storefront) -> Bool {
        lhs.countryCode == rhs.countryCode && lhs.id == rhs.id
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(countryCode)
        hasher.combine(id)
    }

    /// The storefront the customer is in now; nil when the store cannot be reached.
    public static var current: Storefront? {
        get async {
            guard let session = try? MockStoreKitSession.shared() else { return nil }
            return await current(session)
        }
    }

    /// Each storefront the customer moves to, as it happens (the store's test control that sets the storefront,
    /// say); it never ends and never throws (it looks at the store every
    /// ``MockStoreKitConfiguration/updatesInterval`` seconds, as `Transaction.updates` does).
    public static var updates: Storefront.Storefronts { Storefronts() }

    /// The customer's storefront now, or nil when the store cannot be reached.
    static func current(_ session: MockStoreKitSession) async -> Storefront? {
        guard let body = try? await session.client.storefront() else { return nil }
        return Storefront(countryCode: body.countryCode, id: body.id, currency: Locale.Currency(body.currency))
    }

    /// StoreKit 2's `Storefront.Storefronts`: an asynchronous sequence of storefronts, one each time the customer's
    /// changes. Its iteration never throws, and ends only when its task is cancelled.
    public struct Storefronts: AsyncSequence, Sendable {
        public typealias Element = Storefront

        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }

        /// The iterator: each ``next()`` waits for the customer's storefront to change.
        public struct AsyncIterator: AsyncIteratorProtocol {
            /// The storefront last seen: nil until the store is first reached, which only takes it.
            var seen: Storefront?

            public mutating func next() async -> Storefront? {
                while true {
                    if Task.isCancelled { return nil }
                    guard let session = try? MockStoreKitSession.shared() else { return nil }
                    if let now = await Storefront.current(session) {
                        let before = seen
                        seen = now
                        if let before, before != now { return now }
                    }
                    do {
                        try await Task.sleep(
                            nanoseconds: UInt64(session.configuration.updatesInterval * 1_000_000_000))
                    } catch {
                        return nil
                    }
                }
            }

            /// Takes the customer's storefront now, so every change after this call is handed over; false when the
            /// store cannot be reached. For tests, which must know a listener is in place.
            mutating func takePosition() async -> Bool {
                guard seen == nil else { return true }
                guard let session = try? MockStoreKitSession.shared(), let now = await Storefront.current(session)
                else { return false }
                seen = now
                return true
            }
        }
    }
}
