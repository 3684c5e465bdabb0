import OptionParsing
import StoreTestControls
import StoreWire

/// The transaction controls of `mockstore control`: SKTestSession's purchases, Ask to Buy, interrupted purchases and
/// refunds.
/// The `mockstore control` commands of one area (see ``ControlCommands``).
enum TransactionControls {
    /// The `ID` word of a control about one transaction.
    static let transactionWord = PositionalSpec(.id, help: "a transaction id")

    static let reset = ControlCommand(
        CommandSpec("reset", summary: "back to the catalogue's defaults: no transactions, settings or failures"),
        sends: ControlRequest(TestControls.reset))

    static let clear = ControlCommand(
        CommandSpec("clear", summary: "remove every transaction (settings stay)"),
        sends: ControlRequest(TestControls.clear))

    static let transactions = ControlCommand(
        CommandSpec("transactions", summary: "list every transaction, with its order id, status and refund state"),
        sends: ControlRequest(TestControls.transactions))

    static let delete = ControlCommand(
        CommandSpec("delete", summary: "remove one transaction", positionals: [transactionWord])
    ) { args throws(UsageError) in ControlRequest(TestControls.deleteTransaction, try args.transactionId()) }

    static let buy = ControlCommand(
        CommandSpec(
            "buy", summary: "a purchase made outside the app: reaches the app as an update",
            options: [
                .integer(.quantity, "N", noun: "a number", help: "how many"),
                .string(.appAccountToken, "UUID", help: "the app's account token"),
                OfferControls.offerOption,
            ],
            positionals: [PositionalSpec(.product, help: "a product id")]),
        request: buyRequest)

    static let approve = ControlCommand(
        CommandSpec(
            "approve", summary: "settle a purchase waiting for Ask to Buy: approved", positionals: [transactionWord])
    ) { args throws(UsageError) in ControlRequest(TestControls.approve, try args.transactionId()) }

    static let decline = ControlCommand(
        CommandSpec(
            "decline", summary: "settle a purchase waiting for Ask to Buy: declined", positionals: [transactionWord])
    ) { args throws(UsageError) in ControlRequest(TestControls.decline, try args.transactionId()) }

    static let resolve = ControlCommand(
        CommandSpec(
            "resolve", summary: "complete an interrupted purchase, or end a subscription's billing issue",
            positionals: [transactionWord])
    ) { args throws(UsageError) in ControlRequest(TestControls.resolve, try args.transactionId()) }

    static let refund = ControlCommand(
        CommandSpec(
            "refund",
            summary: "refund now (revocationReason 0: other, 1: an issue in the app): REFUND, REFUND_FULL; with "
                + "--percentage P a partial refund of P% (REFUND_PRORATED, revocationPercentage P × 1000)",
            options: [
                .integer(.reason, "0|1", in: 0...1, noun: "a revocationReason", help: "the revocationReason"),
                .string(
                    .percentage, "P",
                    help: "the share refunded, as a percentage above 0 and at most 100 with up to three "
                        + "decimals (50, 33.333): a prorated refund"),
            ],
            positionals: [transactionWord])
    ) { args throws(UsageError) in
        ControlRequest(TestControls.refund, try args.transactionId(), body: try refundBody(args))
    }

    static let requestRefund = ControlCommand(
        CommandSpec(
            "request-refund",
            summary: "the customer asks for a refund: CONSUMPTION_REQUEST; then `refund ID` grants it (REFUND) or "
                + "`decline-refund ID` declines it",
            options: [
                .choice(
                    .reason, ConsumptionRequestReason.knownCases.map(\.rawValue),
                    help: "the consumptionRequestReason")
            ],
            positionals: [transactionWord])
    ) { args throws(UsageError) in
        let body = TestRefundRequestBody(
            consumptionRequestReason: args.string(.reason).map(ConsumptionRequestReason.init(rawValue:)))
        return ControlRequest(TestControls.requestRefund, try args.transactionId(), body: body)
    }

    static let declineRefund = ControlCommand(
        CommandSpec(
            "decline-refund", summary: "decline the refund request: REFUND_DECLINED", positionals: [transactionWord])
    ) { args throws(UsageError) in ControlRequest(TestControls.declineRefund, try args.transactionId()) }

    static let reverseRefund = ControlCommand(
        CommandSpec("reverse-refund", summary: "reverse a refund: REFUND_REVERSED", positionals: [transactionWord])
    ) { args throws(UsageError) in ControlRequest(TestControls.reverseRefund, try args.transactionId()) }

    /// `buy PRODUCT [--quantity N] [--app-account-token UUID] [--offer TYPE:ID]`.
    private static func buyRequest(_ args: ParsedArguments) throws(UsageError) -> ControlRequest {
        let body = PurchaseRequestBody(
            productId: args.positional(.product) ?? "", quantity: args.integer(.quantity).map { Int($0) },
            appAccountToken: args.string(.appAccountToken), offer: try OfferControls.offer(args))
        return ControlRequest(TestControls.buy, body: body)
    }

    /// `refund`'s body: `--reason` and `--percentage` (in milliunits).
    private static func refundBody(_ args: ParsedArguments) throws(UsageError) -> TestRefundBody {
        TestRefundBody(
            revocationReason: args.integer(.reason).map { RevocationReason(rawValue: Int($0)) },
            revocationPercentage: try args.string(.percentage).map { text throws(UsageError) in
                guard let milli = ControlInvocation.milliPercent(text) else {
                    throw .invalidValue(
                        "--percentage", text, isNot: "a percentage above 0 and at most 100 (up to 3 decimals)",
                        command: args.path)
                }
                return milli
            })
    }
}
