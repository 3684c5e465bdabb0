import StoreTestControls
import StoreWire

/// What the console shows, read from the store at once: each customer with what is theirs, the notifications about
/// no customer's transaction (a test notification), the clock and the settings. A value, so the page is a pure
/// function of it (``ConsolePage``).
struct ConsoleSnapshot: Sendable, Equatable {
    /// One customer and what is theirs.
    struct Customer: Sendable, Equatable {
        var customer: TestCustomer
        var transactions: [TestTransaction]
        var subscriptions: [TestSubscription]
        /// The notifications about one of ``transactions``.
        var notifications: [TestNotificationRecord]
    }

    var customers: [Customer]
    /// Notifications about no customer's transaction.
    var otherNotifications: [TestNotificationRecord]
    var clock: TestClockBody
    var settings: TestSettingsBody
}

extension MockStore {
    /// The console's view of the store now, each customer's transactions and subscriptions read as that customer
    /// (``CustomerScope``).
    func consoleSnapshot() throws -> ConsoleSnapshot {
        let notifications = try self.notifications.notificationRecords().notifications
        var claimed = Set<String>()
        var customers: [ConsoleSnapshot.Customer] = []
        for customer in try self.customers.list().customers {
            let (transactions, subscriptions) = try CustomerScope.$name.withValue(customer.name) {
                (try controls.testTransactions().transactions, try self.subscriptions.testSubscriptions().subscriptions)
            }
            let ids = Set(transactions.map(\.transactionId))
            let theirs = notifications.filter { $0.transactionId.map(ids.contains) ?? false }
            claimed.formUnion(theirs.map(\.notificationUUID))
            customers.append(
                .init(
                    customer: customer, transactions: transactions, subscriptions: subscriptions,
                    notifications: theirs))
        }
        return ConsoleSnapshot(
            customers: customers,
            otherNotifications: notifications.filter { !claimed.contains($0.notificationUUID) },
            clock: clockControls.clock(), settings: try settings.current())
    }
}
