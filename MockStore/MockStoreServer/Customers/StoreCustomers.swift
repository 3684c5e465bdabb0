import MockStoreSQLite
import StoreKitCatalogue
import StoreTestControls
import StoreWire

/// The store's customers (`control customer add|list|remove`): Apple's sandbox has many testers, and so does the
/// mock store. Each has their own app transaction, transactions, subscriptions, Ask to Buy requests, eligibility,
/// refunds and storefront; the default customer acts when a request names none.
public struct StoreCustomers: StorePart {
    let configuration: MockStore.Configuration
    let database: GroupCommit<TransactionStore>
    /// Each customer's app transaction, learnt as a customer is added.
    let customerAppTransactions: CustomerAppTransactions

    /// Adds a customer, in `storefront` (the catalogue's when none is given).
    ///
    /// - Throws: ``MockStoreError`` 400 for a name that cannot be one or an unknown storefront, 409 for a name
    ///   taken.
    public func addCustomer(_ request: TestCustomerRequest) throws(MockStoreError) -> TestCustomer {
        guard MockCustomerHeader.isValidName(request.name) else { throw .invalidCustomerName(request.name) }
        let storefront = try request.storefront.map { code throws(MockStoreError) in
            try StoreSettings.knownStorefront(code)
        }
        let now = nowMilliseconds
        return try withDatabase { database in
            guard let added = try database.addCustomer(named: request.name, now: now) else {
                throw MockStoreError.conflict(.customerExists(request.name))
            }
            if let storefront {
                try database.setSetting(added.storefrontSettingKey, to: storefront.code)
            }
            // Learnt before the commit: should it roll back, the record of a customer that is not is harmless.
            customerAppTransactions.learn(added)
            return try testCustomer(added, database)
        }
    }

    /// Every customer, the default one first, then in the order they were added.
    public func list() throws(MockStoreError) -> TestCustomersBody {
        try withDatabase { database in
            TestCustomersBody(customers: try database.allCustomers().map { try testCustomer($0, database) })
        }
    }

    /// Removes a customer with everything that is theirs (transactions, subscriptions, consumption information,
    /// storefront); the notifications sent about them stay in the notification history.
    ///
    /// - Throws: ``MockStoreError`` 400 for a name that cannot be one, 404/4040020 for an unknown customer, 409 for
    ///   the default customer.
    public func removeCustomer(named name: String) throws(MockStoreError) {
        guard MockCustomerHeader.isValidName(name) else { throw .invalidCustomerName(name) }
        try withDatabase { database in
            guard let customer = try database.customer(named: name) else {
                throw MockStoreError.noCustomerToRemove(name, existing: try database.allCustomers().map(\.name))
            }
            guard !customer.isDefault else {
                throw MockStoreError.conflict(.defaultCustomerNotRemovable)
            }
            try database.removeCustomer(customer)
        }
    }

    private func testCustomer(_ customer: StoreCustomer, _ database: TransactionStore) throws -> TestCustomer {
        let code = try database.setting(customer.storefrontSettingKey)
        let storefront = code.flatMap(Storefront.named) ?? configuration.catalogue.storefront
        return TestCustomer(
            name: customer.name, storefront: storefront.code, appTransactionId: String(customer.appTransaction.id),
            isDefault: customer.isDefault)
    }
}
