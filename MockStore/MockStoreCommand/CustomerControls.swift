import OptionParsing
import StoreTestControls

/// `mockstore control customer add NAME [--storefront S]`, `customer list`, `customer remove NAME`: the store's
/// customers (Apple's sandbox testers).
/// The `mockstore control` commands of one area (see ``ControlCommands``).
enum CustomerControls {
    /// What `customer` does, by its first word.
    enum CustomerAction: String, CaseIterable {
        case add, list, remove
    }

    static let customer = ControlCommand(
        CommandSpec(
            "customer",
            summary: "the store's customers (Apple's sandbox testers), each with their own purchases, subscriptions, "
                + "eligibility and storefront: `customer add NAME [--storefront S]`, `customer list`, `customer "
                + "remove NAME` (with everything that is theirs; never the default customer). The device API acts "
                + "for the one its X-Mock-Customer: NAME header names",
            options: [.string(.storefront, "S", help: "the new customer's storefront (default: the catalogue's)")],
            positionals: [
                PositionalSpec(.addOrListOrRemove, choices: CustomerAction.allCases.map(\.rawValue)),
                PositionalSpec(.name, help: "the customer's name", optional: true),
            ]),
        request: customerRequest)

    /// The request of `customer …`.
    private static func customerRequest(_ args: ParsedArguments) throws(UsageError) -> ControlRequest {
        // The parser took only the declared words.
        let action = CustomerAction(rawValue: args.positional(.addOrListOrRemove) ?? "") ?? .list
        switch action {
        case .list:
            guard args.positional(.name) == nil else {
                throw UsageError("customer list takes no name", command: args.path)
            }
            return ControlRequest(TestControls.customers)
        case .add, .remove:
            guard let name = try args.customerName(args.positional(.name), option: nil) else {
                throw UsageError("customer \(action.rawValue) needs a NAME", command: args.path)
            }
            if action == .remove { return ControlRequest(TestControls.removeCustomer, name) }
            let storefront = try args.string(.storefront).map { code throws(UsageError) in
                try SettingsControls.knownStorefront(code, args)
            }
            let body = TestCustomerRequest(name: name, storefront: storefront)
            return ControlRequest(TestControls.addCustomer, body: body)
        }
    }
}
