import MockStoreSQLite
import StoreTestControls
import StoreWire

/// The billing settings in force: the test controls' over the `.storekit` file's `_renewalBillingIssuesEnabled`,
/// `_billingGracePeriodEnabled` and `_billingIssuesEnabled` (Xcode's Editor menu: Enable Billing Retry on Renewal,
/// Enable Billing Grace Period, and the Billing Problem message), and the products taken off sale.
public struct StoreBillingSettings: SubscriptionStorePart {
    let configuration: MockStore.Configuration
    let database: GroupCommit<TransactionStore>
    let runtime: SubscriptionRuntime

    /// Keys of the billing settings in the `settings` table (`reset` removes them: the catalogue's come back).
    enum BillingSettingKey {
        static let billingRetryOnRenewal = "billingRetryOnRenewal"
        static let gracePeriodEnabled = "billingGracePeriodEnabled"
        static let billingIssueMessagesEnabled = "billingIssueMessagesEnabled"
        /// Product ids, one a line.
        static let productsNotForSale = "productsNotForSale"
    }

    /// What renewals are billed with now.
    func inForce(_ database: TransactionStore) throws -> BillingSettings {
        let catalogue = configuration.catalogue.settings
        return BillingSettings(
            billingRetryOnRenewal: try flag(
                BillingSettingKey.billingRetryOnRenewal, default: catalogue.renewalBillingIssuesEnabled, database),
            gracePeriodEnabled: try flag(
                BillingSettingKey.gracePeriodEnabled, default: catalogue.billingGracePeriodEnabled, database),
            productsNotForSale: Set(try productsNotForSale(database)))
    }

    /// Whether StoreKit shows its Billing Problem message for a subscription in billing retry.
    func billingIssueMessagesEnabled(_ database: TransactionStore) throws -> Bool {
        try flag(
            BillingSettingKey.billingIssueMessagesEnabled,
            default: configuration.catalogue.settings.billingIssuesEnabled, database)
    }

    private func flag(_ key: String, default fallback: Bool?, _ database: TransactionStore) throws -> Bool {
        if let stored = try database.setting(key) { return stored == "true" }
        return fallback ?? false
    }

    private func productsNotForSale(_ database: TransactionStore) throws -> [String] {
        (try database.setting(BillingSettingKey.productsNotForSale) ?? "").split(separator: "\n").map(String.init)
    }

    /// Works out again when each subscription of every customer next changes (the rate or a billing setting
    /// changed), so the due index (``TransactionStore/dueSubscriptionStates(until:)``) finds each at its time.
    func rescheduleEverySubscription(_ database: TransactionStore) throws {
        let billing = try inForce(database)
        // An existing row keeps its customer: the save only changes its state and next date.
        for (_, state) in try database.everyCustomersSubscriptionStates() {
            try database.saveSubscription(
                state, nextEventAt: subscriptionLifecycle.nextEventDate(state, billing: billing))
        }
    }

    // MARK: Controls

    /// `GET /test/v1/settings/billing`.
    public func billingSettingsBody() throws(MockStoreError) -> TestBillingSettingsBody {
        try withDatabase { try billingBody($0) }
    }

    /// `POST /test/v1/settings/billing`: changes the settings given; the others stay.
    ///
    /// - Throws: ``MockStoreError`` 4000000 for `forSale` without an auto-renewable `productId` of the catalogue.
    public func updateBillingSettings(_ update: TestBillingSettingsUpdate) throws(MockStoreError)
        -> TestBillingSettingsBody
    {
        if update.forSale != nil || update.productId != nil {
            guard let id = update.productId, update.forSale != nil,
                configuration.catalogue.product(id: id)?.type == .autoRenewable
            else {
                throw .invalid(.offSaleNeedsProduct)
            }
        }
        return try withDatabase { database in
            let flags: [(String, Bool?)] = [
                (BillingSettingKey.billingRetryOnRenewal, update.billingRetryOnRenewal),
                (BillingSettingKey.gracePeriodEnabled, update.gracePeriodEnabled),
                (BillingSettingKey.billingIssueMessagesEnabled, update.billingIssueMessagesEnabled),
            ]
            for case (let key, let value?) in flags {
                try database.setSetting(key, to: value ? "true" : "false")
            }
            if let id = update.productId, let forSale = update.forSale {
                var off = try productsNotForSale(database).filter { $0 != id }
                if !forSale { off.append(id) }
                try database.setSetting(
                    BillingSettingKey.productsNotForSale, to: off.isEmpty ? nil : off.joined(separator: "\n"))
            }
            // What a renewal meets may have changed: each subscription's next event is found again.
            try rescheduleEverySubscription(database)
            return try billingBody(database)
        }
    }

    private func billingBody(_ database: TransactionStore) throws -> TestBillingSettingsBody {
        let settings = try inForce(database)
        return TestBillingSettingsBody(
            billingRetryOnRenewal: settings.billingRetryOnRenewal, gracePeriodEnabled: settings.gracePeriodEnabled,
            billingIssueMessagesEnabled: try billingIssueMessagesEnabled(database),
            productsNotForSale: settings.productsNotForSale.sorted())
    }
}
