import StoreWire

extension MockStoreError {
    /// A request that does not fit the store's state (409).
    public enum Conflict: Equatable, Sendable {
        case customerExists(String)
        case defaultCustomerNotRemovable
        /// The product is in another subscription group than the subscription's.
        case otherGroup(productId: String)
        /// The subscription is expired or revoked.
        case notInForce
        /// Under `--clock sandbox` the clock cannot be moved or sped up.
        case sandboxClock(SandboxRenewalRate, ClockChange)
        case alreadyOwned(productId: String)
        /// Approve, decline or resolve of a transaction not waiting for that.
        case notWaiting(StoredTransaction, Settlement)
        case notFamilyShareable(productId: String)
        /// A family-shared subscription while the customer has one in force in the group.
        case subscribedBeforeSharing
        case notFamilyShared(reference: String)
        case familySharingEnded(transactionId: String)
        case cannotRefund(StoredTransaction)
        case cannotRequestRefund(StoredTransaction)
        case refundAlreadyRequested(transactionId: String)
        case noRefundWaiting(transactionId: String)
        case notRefunded(transactionId: String)
        /// Ask to Buy of a subscription in a group the customer is subscribed in already.
        case subscribedAlready
        /// A purchase of a group the customer has through Family Sharing.
        case sharedGroup
        case noSubscription(reference: String)
        /// An offer's purchase asked to wait for Ask to Buy or an interruption.
        case offerCannotWait
        /// A billing control refused in the subscription's state (the lifecycle says why).
        case billing(originalTransactionId: String, why: BillingConflict)

        /// What a clock control asked of real time.
        public enum ClockChange: String, Equatable, Sendable {
            case movedOn = "moved on"
            case spedUp = "sped up"
        }

        /// How a control settles a pending purchase, and what the purchase must be waiting for.
        public enum Settlement: String, Equatable, Sendable {
            case approve, decline, resolve

            var waiting: String { self == .resolve ? "as an interrupted purchase" : "for Ask to Buy approval" }
        }

        /// The words of the conflict.
        var message: String {
            switch self {
            case .customerExists(let name): "There is a customer called \"\(name)\" already."
            case .defaultCustomerNotRemovable:
                "The default customer cannot be removed: they act for every request that names no customer."
            case .otherGroup(let id): "\(id) is in another subscription group."
            case .notInForce: "The subscription is not in force (expired or revoked)."
            case .sandboxClock(let rate, let change):
                "The store runs on the sandbox clock (\(rate.name)): its dates are the wall clock's, and real "
                    + "time cannot be \(change.rawValue). Start mockstore without --clock sandbox to use the virtual "
                    + "clock."
            case .alreadyOwned(let id): "\(id) is a non-consumable the customer already owns."
            case .notWaiting(let transaction, let settlement):
                "Cannot \(settlement.rawValue) transaction \(transaction.id): it is "
                    + "\(TestControlBodies.describe(transaction)), not waiting \(settlement.waiting)."
            case .notFamilyShareable(let id):
                "\(id) is not family shareable (its familyShareable is false in the catalogue)."
            case .subscribedBeforeSharing:
                "The customer has a subscription in force in this group: the store keeps one subscription per "
                    + "group, so a shared one starts only once it has lapsed."
            case .notFamilyShared(let reference): "\(reference) is not a subscription shared through Family Sharing."
            case .familySharingEnded(let id): "Family Sharing of transaction \(id) has ended already."
            case .cannotRefund(let transaction):
                "Cannot refund transaction \(transaction.id): it is \(TestControlBodies.describe(transaction))."
            case .cannotRequestRefund(let transaction):
                "Cannot request a refund of transaction \(transaction.id): it is "
                    + "\(TestControlBodies.describe(transaction))."
            case .refundAlreadyRequested(let id): "A refund of transaction \(id) is already requested."
            case .noRefundWaiting(let id): "No refund of transaction \(id) is waiting for a decision."
            case .notRefunded(let id): "Cannot reverse a refund of transaction \(id): it is not refunded."
            case .subscribedAlready:
                "The customer is subscribed in this group already: decline the waiting purchase instead."
            case .sharedGroup:
                "The customer has this group through Family Sharing: the store keeps one subscription per group, so "
                    + "a purchase of their own waits until sharing ends (control family-revoke)."
            case .noSubscription(let reference):
                "No subscription for \(reference): give a subscription's transaction id or a product id of its group"
                    + " that the customer subscribed to."
            case .offerCannotWait:
                "A purchase redeeming an offer cannot wait for Ask to Buy or an interruption in this store: turn "
                    + "ask-to-buy and interrupted off to redeem it."
            case .billing(let id, let why): "Cannot do that to subscription \(id): \(Self.words(why))."
            }
        }

        /// Why, in words.
        private static func words(_ conflict: BillingConflict) -> String {
            switch conflict {
            case .notInGracePeriod: "it is not in a billing grace period"
            case .notInBillingRetry: "it is not in billing retry"
            case .noPriceIncreaseWaiting: "no price increase is waiting for the customer's consent"
            case .notActive: "it is not active"
            case .notInRetryOrGracePeriod: "it is not in billing retry or a grace period"
            case .notInForce: "it is not in force"
            case .priceNotAboveZero: "a new price must be above zero"
            }
        }
    }
}
