import OptionParsing
import StoreWire

/// A control about one transaction that sends its id and no body (`approve ID`, `reverse-refund ID`): its name,
/// summary and endpoint are all it declares; the id is checked (digits).
protocol TransactionControl: ControlCommand {
    associatedtype Response: Sendable
    static var name: String { get }
    static var summary: String { get }
    static var endpoint: Endpoint<NoBody, Response, TransactionPath> { get }
    var transactionId: String { get }
    init(transactionId: String)
}

extension TransactionControl {
    static var configuration: CommandSpec {
        CommandSpec(name, summary: summary, positionals: [ControlWords.transactionId.spec])
    }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        self.init(transactionId: try arguments.value(of: ControlWords.transactionId))
    }

    func validate() throws(UsageError) { try ControlWords.checkTransactionId(transactionId) }

    func plan() -> ControlPlan {
        ControlPlan(request: ControlRequest(Self.endpoint, TransactionPath(transactionId: transactionId)))
    }
}
