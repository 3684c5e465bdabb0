import StoreWire

/// The test controls: what `SKTestSession` does in Xcode, under `/test/v1/`. A control acts for the customer its
/// ``MockCustomerHeader`` names, else for the customer of the transaction it names (the default customer when it
/// names none).
///
/// `{subscription}` is a subscription's transaction id, or a product id of its group.
public enum TestControls {
    /// Back to the catalogue's defaults: no transactions, settings or failures.
    public static let reset = Endpoint<NoBody, EmptyBody, NoParameters>(.post, "/test/v1/reset")
    /// Removes every transaction (settings stay).
    public static let clear = Endpoint<NoBody, EmptyBody, NoParameters>(.post, "/test/v1/clear")
    /// Every transaction, oldest first.
    public static let transactions = Endpoint<NoBody, TestTransactionsBody, NoParameters>(
        .get, "/test/v1/transactions")
    /// Removes one transaction.
    public static let deleteTransaction = Endpoint<NoBody, EmptyBody, TransactionPath>(
        .delete, "/test/v1/transactions/{transactionId}",
        errors: [StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound, StoreErrorCode.conflict])
    /// A purchase made outside the app: it reaches the app as an update.
    public static let buy = Endpoint<PurchaseRequestBody, TestTransactionBody, NoParameters>(
        .post, "/test/v1/purchases",
        errors: [StoreErrorCode.invalidProductId, StoreErrorCode.invalidAppAccountToken, StoreErrorCode.conflict])
    /// Approves a purchase waiting for Ask to Buy.
    public static let approve = Endpoint<NoBody, TestTransactionBody, TransactionPath>(
        .post, "/test/v1/transactions/{transactionId}/approve",
        errors: [StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound, StoreErrorCode.conflict])
    /// Declines a purchase waiting for Ask to Buy.
    public static let decline = Endpoint<NoBody, TestTransactionBody, TransactionPath>(
        .post, "/test/v1/transactions/{transactionId}/decline",
        errors: [StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound, StoreErrorCode.conflict])
    /// Completes an interrupted purchase, or ends a subscription's billing issue.
    public static let resolve = Endpoint<NoBody, TestTransactionBody, TransactionPath>(
        .post, "/test/v1/transactions/{transactionId}/resolve",
        errors: [StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound, StoreErrorCode.conflict])
    /// Refunds a transaction, whole or in part (the body is optional).
    public static let refund = Endpoint<TestRefundBody, TestTransactionBody, TransactionPath>(
        .post, "/test/v1/transactions/{transactionId}/refund",
        errors: [StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound, StoreErrorCode.conflict])
    /// Reverses a refund.
    public static let reverseRefund = Endpoint<NoBody, TestTransactionBody, TransactionPath>(
        .post, "/test/v1/transactions/{transactionId}/refund/reverse",
        errors: [StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound, StoreErrorCode.conflict])
    /// The customer asks for a refund: `CONSUMPTION_REQUEST` (the body is optional).
    public static let requestRefund = Endpoint<TestRefundRequestBody, TestTransactionBody, TransactionPath>(
        .post, "/test/v1/transactions/{transactionId}/refund-request",
        errors: [StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound, StoreErrorCode.conflict])
    /// The App Store declines the refund request: `REFUND_DECLINED`.
    public static let declineRefund = Endpoint<NoBody, TestTransactionBody, TransactionPath>(
        .post, "/test/v1/transactions/{transactionId}/refund-request/decline",
        errors: [StoreErrorCode.invalidTransactionId, StoreErrorCode.transactionIdNotFound, StoreErrorCode.conflict])
    /// The settings in force (Ask to Buy, storefront, locale, failures).
    public static let settings = Endpoint<NoBody, TestSettingsBody, NoParameters>(.get, settingsPath)
    /// Changes the settings the update names.
    public static let updateSettings = Endpoint<TestSettingsUpdate, TestSettingsBody, NoParameters>(
        .post, settingsPath)
    /// The failures in force.
    public static let failures = Endpoint<NoBody, TestFailuresBody, NoParameters>(.get, failuresPath)
    /// Makes a StoreKit API fail, once or until cleared.
    public static let setFailure = Endpoint<TestFailureRequest, TestFailuresBody, NoParameters>(.post, failuresPath)
    /// Clears every failure.
    public static let clearFailures = Endpoint<NoBody, TestFailuresBody, NoParameters>(.delete, failuresPath)
    /// Clears the failure of API `{api}`.
    public static let clearFailure = Endpoint<NoBody, TestFailuresBody, FailableAPIPath>(
        .delete, "/test/v1/failures/{api}")
    /// The consumption information servers sent.
    public static let consumption = Endpoint<NoBody, TestConsumptionBody, NoParameters>(
        .get, "/test/v1/consumption")
    /// The notifications made, with every send attempt: a page of them (query items `revision`, the token of the
    /// page before, and `limit`, 1 to 1,000, default 100), see ``TestNotificationsBody`` and
    /// ``notificationsPage(revision:limit:)``.
    public static let notifications = Endpoint<NoBody, TestNotificationsBody, NotificationPageParameters>(
        .get, "/test/v1/notifications", errors: [StoreErrorCode.invalidRequestRevision])

    /// The path of the page of ``notifications`` after the one whose `revision` is given (the first page without
    /// one), at most `limit` notifications (the store's default without one).
    public static func notificationsPage(revision: String?, limit: Int? = nil) -> String {
        notifications.target(NotificationPageParameters(revision: revision, limit: limit.map(String.init)))
    }

    // MARK: Customers

    /// Every customer, the default one first.
    public static let customers = Endpoint<NoBody, TestCustomersBody, NoParameters>(.get, customersPath)
    /// Adds a customer (a sandbox tester).
    public static let addCustomer = Endpoint<TestCustomerRequest, TestCustomer, NoParameters>(
        .post, customersPath, errors: [StoreErrorCode.conflict])
    /// Removes customer `{name}` with everything that is theirs.
    public static let removeCustomer = Endpoint<NoBody, EmptyBody, CustomerPath>(
        .delete, "/test/v1/customers/{name}", errors: [StoreErrorCode.conflict])

    // MARK: The console

    /// The console: an HTML page for a person, showing the customers with their transactions, subscriptions and
    /// notifications, the clock and the settings; its buttons call the controls above (not under `/test/v1/`: it
    /// is a page, not a control).
    public static let console = Endpoint<NoBody, BinaryBody, NoParameters>(.get, "/console")

    // MARK: Paths of more than one endpoint

    static let settingsPath: PathTemplate = "/test/v1/settings"
    static let failuresPath: PathTemplate = "/test/v1/failures"
    static let customersPath: PathTemplate = "/test/v1/customers"
}
