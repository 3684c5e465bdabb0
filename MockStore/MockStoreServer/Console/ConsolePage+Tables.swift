import SafeText
import StoreTestControls
import StoreWire

/// The console's tables: a customer's transactions, subscriptions and notifications, each row with the buttons that
/// apply to it (as Xcode's transaction manager has).
extension ConsolePage {
    static func transactionTable(_ transactions: [TestTransaction], customer: String) -> String {
        let rows = transactions.map { transaction in
            [
                HTMLText.isolated(transaction.transactionId), HTMLText.isolated(transaction.productId),
                HTMLText.isolated(transaction.type.rawValue), HTMLText.escape(date(transaction.purchaseDate)),
                HTMLText.escape(state(of: transaction)), yesNo(transaction.finished),
                HTMLText.escape(refund(of: transaction)),
                "<span class=\"actions\">"
                    + actions(for: transaction, customer: customer).joined(separator: " ") + "</span>",
            ]
        }
        return table(["Transaction", "Product", "Type", "Bought", "State", "Finished", "Refund", "Actions"], rows)
    }

    /// In plain words: purchased, waiting for Ask to Buy, interrupted, declined.
    static func state(of transaction: TestTransaction) -> String {
        switch (transaction.status, transaction.pendingReason) {
        case (.pending, .askToBuy): "waiting for Ask to Buy"
        case (.pending, .interrupted): "interrupted"
        case (let status, _): status.rawValue
        }
    }

    /// Refunded (when, how much, why) or asked for, or none.
    static func refund(of transaction: TestTransaction) -> String {
        if let revoked = transaction.revocationDate {
            // Milliunits: 50000 is 50%.
            let share =
                transaction.revocationPercentage.map { $0 % 1000 == 0 ? " \($0 / 1000)%" : " \(Double($0) / 1000)%" }
                ?? ""
            let reason: String =
                switch transaction.revocationReason {
                case .refundedDueToIssue?: ", for an issue in the app"
                case .refundedForOtherReason?: ", for another reason"
                default: ""
                }
            return "refunded\(share) on \(date(revoked))\(reason)"
        }
        switch transaction.refundRequest {
        case .requested?: return "asked for"
        case .declined?: return "asked for, declined"
        case let other?: return other.rawValue
        case nil: return "none"
        }
    }

    /// The buttons that apply to the transaction in its state.
    static func actions(for transaction: TestTransaction, customer: String) -> [String] {
        let id = transaction.transactionId
        if transaction.status == .pending {
            return transaction.pendingReason == .interrupted
                ? [button("Resolve", path: TestControls.resolve.path(.init(transactionId: id)), customer: customer)]
                : [
                    button("Approve", path: TestControls.approve.path(.init(transactionId: id)), customer: customer),
                    button("Decline", path: TestControls.decline.path(.init(transactionId: id)), customer: customer),
                ]
        }
        guard transaction.status == .purchased else { return [] }
        return transaction.revocationDate == nil
            ? [button("Refund", path: TestControls.refund.path(.init(transactionId: id)), customer: customer)]
            : [
                button(
                    "Reverse refund", path: TestControls.reverseRefund.path(.init(transactionId: id)),
                    customer: customer)
            ]
    }

    static func subscriptionTable(_ subscriptions: [TestSubscription], customer: String, now: Int64) -> String {
        let rows = subscriptions.map { subscription in
            let id = subscription.originalTransactionId
            let buttons = [
                button("Renew", path: TestControls.renew.path(.init(subscription: id)), customer: customer),
                button("Expire", path: TestControls.expire.path(.init(subscription: id)), customer: customer),
            ]
            return [
                HTMLText.isolated(subscription.productId), HTMLText.isolated(subscription.state.rawValue),
                subscription.isEntitled ? "yes" : "no",
                subscription.autoRenewStatus == .on ? "on" : "off",
                HTMLText.escape(nextEvent(of: subscription, now: now)), HTMLText.isolated(id),
                "<span class=\"actions\">" + buttons.joined(separator: " ") + "</span>",
            ]
        }
        return table(
            ["Product", "State", "Entitled", "Renews", "Next on the clock", "First transaction", "Actions"], rows)
    }

    /// What happens next on the store's clock: a renewal, or the end.
    static func nextEvent(of subscription: TestSubscription, now: Int64) -> String {
        let when = date(subscription.expiresDate)
        guard subscription.expiresDate > now else { return "ended \(when)" }
        return subscription.autoRenewStatus == .on ? "renews \(when)" : "ends \(when)"
    }

    static func notificationTable(_ notifications: [TestNotificationRecord]) -> String {
        let rows = notifications.map { notification in
            [
                HTMLText.isolated(notification.notificationType.rawValue)
                    + (notification.subtype.map { " " + HTMLText.isolated($0.rawValue) } ?? ""),
                notification.transactionId.map(HTMLText.isolated) ?? "",
                HTMLText.escape(date(notification.createdDate)), "\(notification.sendAttempts.count)",
                HTMLText.escape(delivery(of: notification)),
            ]
        }
        return table(["Type", "Transaction", "Made", "Tries", "Delivered"], rows)
    }

    /// Delivered or not, in plain words.
    static func delivery(of notification: TestNotificationRecord) -> String {
        switch notification.status {
        case .delivered: return "yes"
        case .pending: return "not yet" + (notification.nextAttemptDate.map { ", next try \(date($0))" } ?? "")
        case .failed: return "no: every try failed"
        case .unsent: return "no: no --notify URL, recorded only"
        case .unrecognized(let value): return value
        }
    }
}
