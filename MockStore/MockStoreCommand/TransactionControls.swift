import OptionParsing
import StoreTestControls
import StoreWire

/// The transaction controls of `mockstore control`: SKTestSession's purchases, Ask to Buy, interrupted purchases and
/// refunds. The `mockstore control` commands of one area (see ``ControlCommands``).
enum TransactionControls {
    struct Reset: FixedControl {
        static let name = "reset"
        static let summary = "back to the catalogue's defaults: no transactions, settings or failures"
        static let request = ControlRequest(TestControls.reset)
    }

    struct Clear: FixedControl {
        static let name = "clear"
        static let summary = "remove every transaction (settings stay)"
        static let request = ControlRequest(TestControls.clear)
    }

    struct Transactions: FixedControl {
        static let name = "transactions"
        static let summary = "list every transaction, with its order id, status and refund state"
        static let request = ControlRequest(TestControls.transactions)
    }

    struct Delete: TransactionControl {
        static let name = "delete"
        static let summary = "remove one transaction"
        static let endpoint = TestControls.deleteTransaction
        let transactionId: String
    }

    struct Buy: ControlCommand {
        static let quantity = Option.integer(.quantity, "N", noun: "a number", help: "how many")
        static let appAccountToken = Option.string(.appAccountToken, "UUID", help: "the app's account token")
        static let product = Argument.word(.product, help: "a product id")
        static let configuration = CommandSpec(
            "buy", summary: "a purchase made outside the app: reaches the app as an update",
            options: [quantity.spec, appAccountToken.spec, OfferControls.offer.spec], positionals: [product.spec])

        let product: String
        let quantity: Int64?
        let appAccountToken: String?
        /// `--offer TYPE:ID`: the subscription offer redeemed.
        let offer: PurchaseOfferOption?

        init(_ arguments: ParsedArguments) throws(UsageError) {
            product = try arguments.value(of: Self.product)
            quantity = try arguments.value(of: Self.quantity)
            appAccountToken = try arguments.value(of: Self.appAccountToken)
            offer = try OfferControls.offerOption(try arguments.value(of: OfferControls.offer))
        }

        func plan() -> ControlPlan {
            let body = PurchaseRequestBody(
                productId: product, quantity: quantity.map { Int($0) }, appAccountToken: appAccountToken,
                offer: offer)
            return ControlPlan(request: ControlRequest(TestControls.buy, body: body))
        }
    }

    struct Approve: TransactionControl {
        static let name = "approve"
        static let summary = "settle a purchase waiting for Ask to Buy: approved"
        static let endpoint = TestControls.approve
        let transactionId: String
    }

    struct Decline: TransactionControl {
        static let name = "decline"
        static let summary = "settle a purchase waiting for Ask to Buy: declined"
        static let endpoint = TestControls.decline
        let transactionId: String
    }

    struct Resolve: TransactionControl {
        static let name = "resolve"
        static let summary = "complete an interrupted purchase, or end a subscription's billing issue"
        static let endpoint = TestControls.resolve
        let transactionId: String
    }

    struct Refund: ControlCommand {
        static let reason = Option.integer(
            .reason, "0|1", in: 0...1, noun: "a revocationReason", help: "the revocationReason")
        static let percentage = Option.string(
            .percentage, "P",
            help: "the share refunded, as a percentage above 0 and at most 100 with up to three "
                + "decimals (50, 33.333): a prorated refund")
        static let configuration = CommandSpec(
            "refund",
            summary: "refund now (revocationReason 0: other, 1: an issue in the app): REFUND, REFUND_FULL; with "
                + "--percentage P a partial refund of P% (REFUND_PRORATED, revocationPercentage P × 1000)",
            options: [reason.spec, percentage.spec], positionals: [ControlWords.transactionId.spec])

        let transactionId: String
        let reason: Int64?
        /// `--percentage P`, as given.
        let percentage: String?

        init(_ arguments: ParsedArguments) throws(UsageError) {
            transactionId = try arguments.value(of: ControlWords.transactionId)
            reason = try arguments.value(of: Self.reason)
            percentage = try arguments.value(of: Self.percentage)
        }

        func validate() throws(UsageError) {
            try ControlWords.checkTransactionId(transactionId)
            if let percentage, ControlInvocation.milliPercent(percentage) == nil {
                throw .invalidValue(
                    "--percentage", percentage, isNot: "a percentage above 0 and at most 100 (up to 3 decimals)")
            }
        }

        func plan() -> ControlPlan {
            let body = TestRefundBody(
                revocationReason: reason.map { RevocationReason(rawValue: Int($0)) },
                revocationPercentage: percentage.flatMap(ControlInvocation.milliPercent))
            return ControlPlan(
                request: ControlRequest(TestControls.refund, TransactionPath(transactionId: transactionId), body: body))
        }
    }

    struct RequestRefund: ControlCommand {
        static let reason = Option.choice(
            .reason, ConsumptionRequestReason.knownCases, word: { $0.rawValue },
            help: "the consumptionRequestReason")
        static let configuration = CommandSpec(
            "request-refund",
            summary: "the customer asks for a refund: CONSUMPTION_REQUEST; then `refund ID` grants it (REFUND) or "
                + "`decline-refund ID` declines it",
            options: [reason.spec], positionals: [ControlWords.transactionId.spec])

        let transactionId: String
        let reason: ConsumptionRequestReason?

        init(_ arguments: ParsedArguments) throws(UsageError) {
            transactionId = try arguments.value(of: ControlWords.transactionId)
            reason = try arguments.value(of: Self.reason)
        }

        func validate() throws(UsageError) { try ControlWords.checkTransactionId(transactionId) }

        func plan() -> ControlPlan {
            let body = TestRefundRequestBody(consumptionRequestReason: reason)
            return ControlPlan(
                request: ControlRequest(
                    TestControls.requestRefund, TransactionPath(transactionId: transactionId), body: body))
        }
    }

    struct DeclineRefund: TransactionControl {
        static let name = "decline-refund"
        static let summary = "decline the refund request: REFUND_DECLINED"
        static let endpoint = TestControls.declineRefund
        let transactionId: String
    }

    struct ReverseRefund: TransactionControl {
        static let name = "reverse-refund"
        static let summary = "reverse a refund: REFUND_REVERSED"
        static let endpoint = TestControls.reverseRefund
        let transactionId: String
    }
}
