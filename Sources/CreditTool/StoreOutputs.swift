import CreditLedger
import Payments
import TopUp

/// What the store commands print with `--json` (`store`, `topup`, `collect`, `reconcile`), one type each.
enum StoreOutputs {
    /// `credit store` and `credit store use …`: which store, and how receipts are checked.
    struct Store: Encodable {
        var store: String
        var url: String?
        var signing: String?
        var bundleId: String?
        var environment: String?
    }

    /// `credit topup` that did not credit: `pending` (with what it waits for) or `userCancelled`.
    struct Purchase: Encodable {
        var result: String
        var waitingFor: String?
        var transactionId: String?
    }

    /// `credit collect` on a data directory that cannot be written.
    struct NotCollected: Encodable {
        var collected = false
        var readOnly = true
        var balance: Int64
    }

    /// `credit collect`.
    struct Collected: Encodable {
        struct Refused: Encodable {
            var transactionId: String
            var reason: String
        }
        var credited: [EntryJSON]
        var reversed: [EntryJSON]
        var alreadyCredited: Int
        var refused: [Refused]
        var otherAccounts: [String]
        var finished: Int
        var balance: Int64
    }

    /// `credit reconcile`.
    struct Reconciliation: Encodable {
        struct Apart: Encodable {
            var transactionId: String
            var kind: String
        }
        struct Finding: Encodable {
            var transactionId: String
            var finding: String
            var store: String
            var ledger: String
            var fixable: Bool
            var fixed: [EntryJSON]
            var notFixed: String?
        }
        var agree: Bool
        var compared: Int
        var balance: Int64
        var apart: [Apart]
        var findings: [Finding]
    }
}
