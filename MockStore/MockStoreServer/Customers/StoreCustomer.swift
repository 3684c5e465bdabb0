/// One customer of the store, as `customers` keeps them: a sandbox tester with their own app transaction.
struct StoreCustomer: Sendable, Equatable {
    /// The row id (``CustomerContext/defaultId`` for the default customer).
    var id: Int64
    /// The name requests use.
    var name: String
    /// The customer's `appTransactionId` and when they first got the app.
    var appTransaction: TransactionStore.AppTransactionRecord

    /// Whether this is the customer who acts when a request names none.
    var isDefault: Bool { id == CustomerContext.defaultId }

    /// The runtime setting that holds the customer's storefront (the default customer's is the store's own).
    var storefrontSettingKey: String { CustomerContext(id: id).storefrontSettingKey }
}
