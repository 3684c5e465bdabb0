/// The customer a database call acts for: the one its request names (the device API's `X-Mock-Customer`, a
/// control's `--customer`), the default customer when it names none, or the customer of the transaction the call
/// is about (the Server API, and controls given a transaction id).
struct CustomerContext: Sendable, Equatable {
    /// The default customer's row: every store has it, and a store made before customers existed holds only theirs.
    static let defaultId: Int64 = 1

    /// The customer's row in `customers`.
    var id: Int64 = Self.defaultId
    /// Whether the request named the customer: a transaction of another customer is then not theirs to act on.
    var isNamed = false

    /// The runtime setting that holds the customer's storefront (the default customer's is the store's own, as
    /// before customers existed). `reset` empties the settings, so every customer is back in the catalogue's.
    var storefrontSettingKey: String {
        id == Self.defaultId
            ? MockStore.SettingKey.storefront : MockStore.SettingKey.storefront + ".customer." + String(id)
    }
}
