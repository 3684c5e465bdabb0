import OptionParsing
import StoreTestControls
import StoreWire

/// A control about one subscription that sends its reference and no body (`recover SUBSCRIPTION`,
/// `family-revoke SUBSCRIPTION`): its name, summary, word and endpoint are all it declares; the reference is
/// checked.
protocol SubscriptionControl: ControlCommand {
    associatedtype Response: Sendable
    static var name: String { get }
    static var summary: String { get }
    /// The `SUBSCRIPTION` word, with its help.
    static var word: Argument<String> { get }
    static var endpoint: Endpoint<NoBody, Response, SubscriptionReferencePath> { get }
    /// A transaction id of the subscription, or a product id of its group.
    var subscription: String { get }
    init(subscription: String)
}

extension SubscriptionControl {
    static var word: Argument<String> { BillingControls.subscriptionWord }

    static var configuration: CommandSpec { CommandSpec(name, summary: summary, positionals: [word.spec]) }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        self.init(subscription: try arguments.value(of: Self.word))
    }

    func validate() throws(UsageError) { try ControlWords.checkSubscription(subscription) }

    func plan() -> ControlPlan {
        ControlPlan(request: ControlRequest(Self.endpoint, SubscriptionReferencePath(subscription: subscription)))
    }
}
